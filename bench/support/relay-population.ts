/**
 * The people and laptops of the relay load bench, made through the relay's own pages and API: people
 * invited by the operator and joined; each person's laptops paired (pairing requests from addresses of
 * their own, as behind a proxy with --trust-proxy, so the per-address pairing limit is not what is
 * measured), approved on the page, collected by one poll.
 */
import type { RelayProcess } from '../../test/support/relay-process.js';
import { api, decide, type Pairing, WebSession } from '../../test/support/relay-web.js';

export interface Laptop {
  id: string;
  credential: string;
}

export interface Person {
  web: WebSession;
  laptops: Laptop[];
}

async function invite(operator: WebSession): Promise<string> {
  await operator.get('/people');
  const made = await operator.post('/people/invite', {});
  const link = /<code class="secret">([^<]+)<\/code>/.exec(made.text)?.[1];
  if (made.status !== 200 || !link) throw new Error(`no invitation: ${made.status}`);
  return link.replace(/&amp;/g, '&');
}

async function join(front: RelayProcess, link: string, username: string): Promise<WebSession> {
  const web = new WebSession(front);
  const url = new URL(link);
  await web.get(url.pathname + url.search);
  const password = `${username} has a long bench password`;
  const joined = await web.post('/join', {
    token: url.searchParams.get('token')!,
    username,
    password,
    password_again: password,
  });
  if (joined.status !== 303) throw new Error(`join of ${username} answered ${joined.status}`);
  await web.get('/inbox');
  return web;
}

const addressOf = (laptop: number): string => `10.0.${laptop >> 8}.${laptop & 255}`;

/** Runs `work` over `items`, `width` at a time. */
async function inTurns<T, R>(
  items: T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

/** `people` people (the operator first), each with `laptops` paired laptops. */
export async function populate(
  front: RelayProcess,
  operator: WebSession,
  people: number,
  laptops: number,
): Promise<Person[]> {
  const started = performance.now();
  const links: string[] = [];
  for (let index = 1; index < people; index++) links.push(await invite(operator));
  // Two at a time: a join hashes its password (scrypt), one core each.
  const webs = [
    operator,
    ...(await inTurns(links, 2, (link, index) => join(front, link, `person-${index + 1}`))),
  ];
  const joined = performance.now();
  const wanted = webs.flatMap((web, person) =>
    Array.from({ length: laptops }, (_, laptop) => ({ web, number: person * laptops + laptop })),
  );
  const pairings = await inTurns(wanted, 8, async ({ web, number }) => {
    const created = await api(front, 'POST', '/v1/pairings', {
      body: { sender_name: `laptop-${number}`, client: 'notify/0.1.0' },
      headers: { 'x-forwarded-for': addressOf(number) },
    });
    if (created.status !== 201) throw new Error(`pairing ${number} answered ${created.status}`);
    const pairing = created.body as unknown as Pairing;
    await decide(web, pairing, 'approve');
    return pairing;
  });
  front.advance(Math.max(...pairings.map((pairing) => pairing.interval)) * 1000);
  const paired = await inTurns(pairings, 8, async (pairing, number) => {
    const polled = await api(front, 'POST', `/v1/pairings/${pairing.pairing_id}/poll`, {
      bearer: pairing.poll_secret,
      headers: { 'x-forwarded-for': addressOf(number) },
    });
    if (polled.body['status'] !== 'approved') throw new Error(`poll: ${JSON.stringify(polled.body)}`);
    const body = polled.body as { credential: string; installation: { id: string } };
    return { id: body.installation.id, credential: body.credential };
  });
  console.log(
    `  set up: ${people} people in ${((joined - started) / 1000).toFixed(1)} s, ${wanted.length} laptops paired in ${((performance.now() - joined) / 1000).toFixed(1)} s`,
  );
  return webs.map((web, person) => ({
    web,
    laptops: paired.slice(person * laptops, (person + 1) * laptops),
  }));
}
