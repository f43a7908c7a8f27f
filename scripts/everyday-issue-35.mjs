// Issue 35 as a new user meets it, against the notifyd that try-everyday.mjs started from the README:
// each point is tried with the clone's own notify and notifyctl and, for the page, Debian's Chromium
// (through playwright-core) 390 px wide, writing a screenshot of every page. Each point prints what a
// person would look at and adds a line to `problems` when it is not as the issue asks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';

const CHROMIUM = '/usr/bin/chromium';
const PHONE = { width: 390, height: 844 };
/** Every page of the web page, by its hash, with the screenshot's name. */
const PAGES = [
  'inbox',
  'history',
  'settings',
  'types',
  'sounds',
  'providers',
  'routes',
  'outbox',
  'sessions',
];

/**
 * @param {{ clone: string, env: NodeJS.ProcessEnv, port: number, screens: string, problems: string[] }} run
 */
export async function tryIssue35({ clone, env, port, screens, problems }) {
  const home = env.HOME;
  const base = `http://127.0.0.1:${port}`;
  const token = JSON.parse(readFileSync(join(home, '.config/notify/config.json'), 'utf8')).authToken;
  const program = (file) => (args, input) => {
    const result = spawnSync(process.execPath, [join(clone, file), ...args], {
      env,
      cwd: input?.cwd ?? clone,
      input: input?.stdin ?? '',
      encoding: 'utf8',
    });
    return { code: result.status, stdout: result.stdout, out: `${result.stdout}${result.stderr}` };
  };
  const notifyctl = program('dist/src/cli/notifyctl/main.js');
  const notify = program('dist/notify.cjs');
  const api = async (method, path, body) => {
    const response = await globalThis.fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return response.json();
  };
  const point = (title) => console.log(`\n=== Issue 35, ${title}`);
  const show = (what, text) => console.log(`$ ${what}\n${text.trimEnd()}`);
  const check = (ok, problem) => ok || problems.push(`issue 35: ${problem}`);

  // A local receiver stands in for a phone's webhook: what reaches it left the machine.
  const received = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(body);
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

  try {
    point('point 2: doctor tells what the last sounds did');
    const preview = notifyctl(['sounds', 'preview', 'chime']);
    show('notifyctl sounds preview chime', preview.out);
    const doctor = notifyctl(['doctor']);
    const soundLine = doctor.out.split('\n').find((line) => /\bsounds?\b/.test(line)) ?? '(no sounds line)';
    show('notifyctl doctor | grep sound', soundLine);
    if (preview.code !== 0)
      check(!/played through/.test(soundLine), `doctor says "${soundLine}" while a preview failed`);

    point('point 3: switching quiet hours off sends at once what they held');
    const provider = JSON.parse(
      notifyctl(['providers', 'add', 'webhook', '--name', 'Phone hook', '--set', `url=${hook}`, '--json'])
        .stdout,
    );
    notifyctl(['providers', 'enable', provider.id]);
    const route = JSON.parse(
      notifyctl(['routes', 'add', '--provider', provider.id, '--min-priority', 'low', '--json']).stdout,
    );
    notifyctl(['routes', 'enable', route.id]);
    const clock = (date) =>
      `${date.getHours()}`.padStart(2, '0') + ':' + `${date.getMinutes()}`.padStart(2, '0');
    const window = `${clock(new Date(Date.now() - 3_600_000))}-${clock(new Date(Date.now() + 7_200_000))}`;
    const quietLine = (out) => out.split('\n').find((line) => line.startsWith('quietHours')) ?? out;
    show(
      `notifyctl settings set quietHours=${window}`,
      quietLine(notifyctl(['settings', 'set', `quietHours=${window}`]).out),
    );
    notify(['Held by quiet hours', 'sent when they end', '--priority', 'normal']);
    await sleep(1500);
    show('notifyctl outbox list', notifyctl(['outbox', 'list']).out);
    check(received.length === 0, 'a send went out during quiet hours');
    show(
      'notifyctl settings set quietHours=off',
      quietLine(notifyctl(['settings', 'set', 'quietHours=off']).out),
    );
    for (let waited = 0; received.length === 0 && waited < 15_000; waited += 250) await sleep(250);
    show('notifyctl outbox list   (the provider by its name)', notifyctl(['outbox', 'list']).out);
    check(
      received.length === 1,
      `quiet hours off, the held send reached the receiver ${received.length} times`,
    );

    point('point 4: help everywhere, within 100 columns');
    const list = notifyctl(['--help']).out;
    const names = [...list.matchAll(/^ {2}([a-z][a-z-]+) /gm)].map((match) => match[1]);
    for (const name of names) {
      const help = notifyctl([name, '--help']);
      const wide = help.out.split('\n').filter((line) => line.length > 100);
      check(help.code === 0 && help.out.includes('Usage:'), `notifyctl ${name} --help exited ${help.code}`);
      check(wide.length === 0, `notifyctl ${name} --help has lines over 100 columns: ${wide[0]}`);
    }
    show('notifyctl hook --help', notifyctl(['hook', '--help']).out);
    console.log(`(${names.length} commands answered --help within 100 columns)`);

    point('point 5: the port in force reaches the service and the hooks');
    const service = notifyctl(['service', 'install', '--dry-run']).out;
    show(
      'notifyctl service install --dry-run | grep port',
      service
        .split('\n')
        .filter((l) => /port/.test(l))
        .join('\n'),
    );
    check(
      service.includes(`--port ${port}`),
      `service install --dry-run does not give notifyd --port ${port}`,
    );
    const settings = join(home, '.claude/settings.json');
    const hooks = existsSync(settings) ? readFileSync(settings, 'utf8') : '';
    check(
      hooks.includes(`NOTIFY_PORT=${port}`),
      `~/.claude/settings.json's hooks do not carry NOTIFY_PORT=${port}`,
    );
    console.log(
      `~/.claude/settings.json: ${hooks.includes(`NOTIFY_PORT=${port}`) ? 'hooks carry' : 'MISSING'} NOTIFY_PORT=${port}`,
    );

    point(
      'point 6: the test suite uses only ports it chose (test/development/own-ports.test.ts in npm test)',
    );

    point('point 7: docs a newcomer needs');
    const relayDoc = readFileSync(join(clone, 'docs/relay.md'), 'utf8');
    check(relayDoc.includes('--allow-private'), 'docs/relay.md never says --allow-private');
    console.log(`docs/relay.md says --allow-private: ${relayDoc.includes('--allow-private')}`);

    point('point 8: nits');
    const request = await api('POST', '/v1/notifications', {
      title: 'Claude Code needs your permission',
      message: 'Claude Code wants to run this command:\nnpm publish',
      agent: 'claude-code',
      project: 'shop',
      type: 'permission_required',
      priority: 'high',
      key: 'tour-permission',
      actions: [
        { id: 'allow', label: 'Allow' },
        { id: 'deny', label: 'Deny' },
        { id: 'allow_always', label: 'Always allow npm publish' },
      ],
    });
    const sub = join(clone, 'docs');
    const fromFolder = await api(
      'GET',
      `/v1/notifications/${JSON.parse(notify(['Tests passed', 'all green'], { cwd: sub }).stdout).id}`,
    );
    console.log(
      `notify send from ${sub}: stored with cwd ${fromFolder.cwd}; on a desktop its toast's last line would read ` +
        `"cli · ${clone.split('/').at(-1)}" (the repository of that folder; test/presentation/toast-sender-line.test.ts)`,
    );
    const secret = notifyctl(
      [
        'providers',
        'add',
        'webhook',
        '--name',
        'Signed',
        '--set',
        `url=${hook}`,
        '--secret',
        'signingSecret',
      ],
      { stdin: 'not-a-whsec-secret\n' },
    );
    show(
      'notifyctl providers add webhook ... --secret signingSecret   (typed: not-a-whsec-secret)',
      secret.out,
    );
    check(secret.code !== 0, 'a signingSecret that is not whsec_ + base64 was accepted');
    show(
      'notifyctl --help | grep hooks',
      list
        .split('\n')
        .filter((line) => /^ {2}hooks /.test(line))
        .join('\n'),
    );

    await tryThePage({ base, screens, request, provider, notifyctl, api, show, check, point });

    const revision = ['--revision', String(request.revision)];
    const first = notifyctl(['answer', '--key', 'tour-permission', 'deny', ...revision]);
    const again = notifyctl(['answer', '--key', 'tour-permission', 'allow', ...revision]);
    show(`notifyctl answer --key tour-permission allow ${revision.join(' ')}   (after deny)`, again.out);
    check(
      first.code === 0 && /already answered/.test(again.out),
      'answer --key on an answered request does not say so',
    );
  } finally {
    receiver.close();
  }
}

/** Points 1, 7 and 8 in Chromium at 390 px: every page, the buttons of a request, a new route, sessions. */
async function tryThePage({ base, screens, request, provider, notifyctl, api, show, check, point }) {
  point(`points 1, 7 and 8 in the page, 390 px wide (screenshots in ${screens})`);
  if (!existsSync(CHROMIUM)) {
    console.log(`(skipped: no ${CHROMIUM}; apt-get install chromium)`);
    return;
  }
  mkdirSync(screens, { recursive: true });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  try {
    const page = await browser.newPage({ viewport: PHONE });
    const link = /http:\S+\/login\?code=\S+/.exec(notifyctl(['open', '--print']).out)?.[0];
    await page.goto(link);
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    for (const name of PAGES) {
      await page.goto(`${base}/#/${name}`);
      await page.locator('h1').first().waitFor();
      await settled(page);
      const width = await page.evaluate('document.documentElement.scrollWidth');
      await page.screenshot({ path: join(screens, `390-${name}.png`), fullPage: true });
      console.log(`#/${name}: ${width} px wide -> 390-${name}.png`);
      check(width <= PHONE.width, `#/${name} scrolls sideways at 390 px (${width} px wide)`);
    }

    // Point 8: a request's answers are the main buttons; the page says what Resolve and Dismiss do.
    await page.goto(`${base}/#/inbox`);
    const buttons = page.getByRole('group', { name: `What to do with: ${request.title}` });
    await buttons.getByRole('button', { name: /^Answer Allow:/ }).waitFor();
    const note = buttons.getByText(/^Resolve and Dismiss answer nothing/);
    const said = (await note.count()) > 0 ? await note.innerText() : '(nothing)';
    console.log(`Under the request's buttons: ${said}`);
    check((await note.count()) > 0, 'the page does not say what Resolve and Dismiss do to the agent');
    await buttons.screenshot({ path: join(screens, '390-request-buttons.png') });

    // Point 1 and 8: the route form has the attention policy and starts as notifyctl routes add.
    await page.goto(`${base}/#/routes`);
    const form = page.getByRole('form', { name: 'New route' });
    await form.waitFor();
    check((await form.locator('[name="delay"]').count()) === 1, 'the route form has no delay');
    await form.getByLabel('Name', { exact: true }).fill('From the page');
    await form.getByLabel('Provider').selectOption({ label: provider.name });
    await form.getByRole('button', { name: 'Create route' }).click();
    await page.getByRole('heading', { name: /From the page/ }).waitFor();
    const cli = JSON.parse(
      notifyctl(['routes', 'add', '--provider', provider.id, '--name', 'From notifyctl', '--json']).stdout,
    );
    const made = (await api('GET', '/v1/routes')).find((route) => route.name === 'From the page');
    const chosen = ({ id: _id, name: _name, createdAt: _c, updatedAt: _u, ...rest }) => JSON.stringify(rest);
    show(
      'notifyctl routes list   (a route from the page, one from routes add)',
      notifyctl(['routes', 'list']).out,
    );
    check(
      chosen(made) === chosen(cli),
      `a new route differs: page ${chosen(made)}, routes add ${chosen(cli)}`,
    );
    await page.screenshot({ path: join(screens, '390-routes-new.png'), fullPage: true });

    // Point 8: the sessions list names the browser as a person would; --json keeps the User-Agent.
    const sessions = notifyctl(['sessions', 'list']).out;
    show('notifyctl sessions list', sessions);
    check(
      /Chrome on Linux/.test(sessions) && !/Mozilla\//.test(sessions),
      'sessions list shows the raw User-Agent',
    );

    // Point 8: a used sign-in link gets the page's own styled sentence.
    await page.goto(link);
    await page.screenshot({ path: join(screens, '390-used-link.png'), fullPage: true });
    const used = await page.locator('body').innerText();
    check(!used.includes('`'), 'the used sign-in link page shows literal backticks');
    console.log(`A used sign-in link: ${used.trim().replace(/\s+/g, ' ')} -> 390-used-link.png`);
  } finally {
    await browser.close();
  }
}

/** Waits until the page's text stops changing (its lists loaded); the event stream keeps the network busy. */
async function settled(page) {
  let before = '';
  for (let waited = 0; waited < 5000; waited += 250) {
    const now = await page.evaluate('document.body.innerText');
    if (now === before) return;
    before = now;
    await sleep(250);
  }
}
