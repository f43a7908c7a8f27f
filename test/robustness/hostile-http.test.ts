import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startBroker, type BrokerProcess } from '../support/broker-process.js';
import { check, headerName, headerValue, json, nastyString, pct, pollutionKey, type Probe } from './probe.js';
import { assertAlive, assertErrorShape, rawRequest, snapshot, validCreate } from './support.js';

/**
 * Property-based: hostile headers, query strings, paths and request framing against the real notifyd,
 * over raw sockets. Shared properties (in `check`): never a 5xx, `{"error": string}` on every 4xx but
 * 413, and no stored row changed by a rejected request; afterwards the process is alive.
 */

/** Runs per property; `NOTIFY_FUZZ_RUNS=1000 npm test` searches deeper. */
const RUNS = Number(process.env['NOTIFY_FUZZ_RUNS'] ?? 150);

const ENDPOINTS = (id: string) => [
  { method: 'GET', path: '/health', auth: false },
  { method: 'GET', path: '/v1/health', auth: true },
  { method: 'GET', path: '/v1/notifications', auth: true },
  { method: 'POST', path: '/v1/notifications', auth: true },
  { method: 'GET', path: `/v1/notifications/${id}`, auth: true },
  { method: 'PATCH', path: `/v1/notifications/${id}`, auth: true },
  { method: 'POST', path: `/v1/notifications/${id}/dismiss`, auth: true },
];

interface Fixture {
  broker: BrokerProcess;
  ids: string[];
}

async function fixture(): Promise<Fixture> {
  const broker = await startBroker();
  const ids: string[] = [];
  for (let index = 0; index < 4; index++) {
    const response = await broker.request(
      'POST',
      '/v1/notifications',
      validCreate(`http ${index}`, { project: `p${index % 2}`, type: index % 2 ? 'warning' : 'info' }),
    );
    assert.equal(response.status, 201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  const dismissed = await broker.request('POST', `/v1/notifications/${ids[1]}/dismiss`);
  assert.equal(dismissed.status, 200);
  return { broker, ids };
}

/** Every Authorization header shape a confused or hostile client sends. */
function authorizationHeaders(token: string): fc.Arbitrary<string[]> {
  const valid = `Bearer ${token}`;
  const wrong = fc.oneof(
    fc.constantFrom(
      'Bearer',
      'Bearer ',
      `Basic ${token}`,
      token,
      `Bearer ${token}x`,
      `Bearer x${token}`,
      `Bearer ${token.slice(1)}`,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase()}`,
      `Bearer ${token} ${token}`,
      `Bearer "${token}"`,
      `Bearer ${Buffer.from(token).toString('base64')}`,
      'Bearer null',
      'Bearer undefined',
    ),
    headerValue(60),
    headerValue(60).map((value) => `Bearer ${value}`),
  );
  const accepted = fc.constantFrom(valid, `bearer ${token}`, `BEARER    ${token}`);
  return fc.oneof(
    fc.constant<string[]>([]),
    wrong.map((value) => [value]),
    accepted.map((value) => [value]),
    fc.tuple(wrong, accepted).map(([a, b]) => [a, b]),
    fc.tuple(accepted, wrong).map(([a, b]) => [a, b]),
    fc.tuple(wrong, wrong).map(([a, b]) => [a, b]),
  );
}

describe('hostile HTTP against the real notifyd', () => {
  let fx: Fixture;
  before(async () => {
    fx = await fixture();
  });
  after(async () => {
    await fx.broker.stop();
    fx.broker.home.cleanup();
  });

  it('known hostile requests (regressions found by the properties below)', async () => {
    const token: [string, string] = ['Authorization', `Bearer ${fx.broker.token}`];
    const cases: { probe: Probe; status: number }[] = [
      // Node's parser refuses these before fastify sees them.
      {
        probe: {
          method: 'POST',
          target: '/v1/notifications',
          headers: [token],
          body: Buffer.from('{}'),
          contentLength: 'abc',
        },
        status: 400,
      },
      {
        probe: {
          method: 'POST',
          target: '/v1/notifications',
          headers: [token, ['Content-Length', '2'], ['Content-Length', '3']],
          body: Buffer.from('{}'),
          contentLength: false,
        },
        status: 400,
      },
      {
        probe: { method: 'GET', target: '/v1/health', headers: [token, ['X-Big', 'a'.repeat(20_000)]] },
        status: 431,
      },
      {
        probe: { method: 'GET', target: '/v1/health', headers: [token, ['X-Bad', 'a\u0000b']] },
        status: 400,
      },
      // Bad percent-encoding is refused after the Host and token checks.
      { probe: { method: 'GET', target: '/v1/notifications/%zz', headers: [token] }, status: 400 },
      // A long id is just an unknown id; only one past the router's 2048 characters is refused as too long.
      {
        probe: {
          method: 'PATCH',
          target: `/v1/notifications/${'a'.repeat(101)}`,
          headers: [token],
          body: Buffer.from('{"status":"resolved"}'),
        },
        status: 404,
      },
      {
        probe: { method: 'GET', target: `/v1/notifications/${'a'.repeat(2049)}`, headers: [token] },
        status: 414,
      },
      // HTTP/1.1 without Host: the host guard answers, not Node's bare 400.
      { probe: { method: 'GET', target: '/v1/health', noHost: true, headers: [token] }, status: 421 },
      // A body cut short by the client: refused, and not logged as an internal error.
      {
        probe: {
          method: 'POST',
          target: '/v1/notifications',
          headers: [token],
          body: Buffer.from('{"title":"a"'),
          contentLength: '100',
        },
        status: 400,
      },
      {
        probe: {
          method: 'POST',
          target: '/v1/notifications',
          headers: [token, ['Transfer-Encoding', 'chunked']],
          body: Buffer.from('5\r\n{"tit'),
          contentLength: false,
        },
        status: 400,
      },
      // A body longer than its Content-Length: the request that was read is carried out and gets its
      // own answer; the bytes after it are never answered as if they were that request.
      {
        probe: {
          method: 'POST',
          target: `/v1/notifications/${fx.ids[3]}/dismiss`,
          headers: [token],
          body: Buffer.from('{"status":"resolved"}'),
          contentLength: '0',
        },
        status: 200,
      },
      {
        probe: {
          method: 'POST',
          target: '/v1/notifications',
          headers: [token, ['Content-Type', 'application/json']],
          body: Buffer.from('{"title":"short","message":"length"} trailing garbage'),
          contentLength: String('{"title":"short","message":"length"}'.length),
        },
        status: 201,
      },
    ];
    for (const { probe, status } of cases) {
      const response = await check(fx.broker, probe);
      assert.equal(
        response.status,
        status,
        `${probe.method} ${probe.target.slice(0, 60)}: ${response.body.toString()}`,
      );
    }
    await assertAlive(fx.broker);
  });

  it('random, missing and duplicated Authorization, odd Content-Type and extra headers at every endpoint', async () => {
    const token = fx.broker.token;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS(fx.ids[0]!)),
        authorizationHeaders(token),
        fc.option(
          fc.oneof(
            fc.constantFrom(
              'application/json',
              'text/html',
              'application/json; charset=utf-16',
              'multipart/form-data',
              '',
              'x',
            ),
            headerValue(30),
          ),
        ),
        fc.array(
          fc.oneof(
            fc.tuple(headerName, headerValue(40)),
            fc.constantFrom<[string, string]>(
              ['Expect', 'nonsense'],
              ['Expect', '100-continue'],
              ['X-Forwarded-For', '8.8.8.8'],
              ['Origin', 'https://evil.example'],
              ['Cookie', '__proto__=1'],
            ),
          ),
          { maxLength: 4 },
        ),
        async (endpoint, authorization, type, extra) => {
          const body =
            endpoint.method === 'GET' ? undefined : Buffer.from(JSON.stringify(validCreate('hdr')));
          const probe: Probe = {
            method: endpoint.method,
            target: endpoint.path,
            headers: [
              ...authorization.map((value): [string, string] => ['Authorization', value]),
              ...(type === null ? [] : [['Content-Type', type] as [string, string]]),
              ...extra,
            ],
            ...(body && { body }),
          };
          const response = await check(fx.broker, probe);
          const status = response.status!;
          const carriesToken = authorization.some((value) => value.includes(token));
          if (endpoint.auth && authorization.length > 1) {
            // Neither of two headers is picked: which one counts must not depend on who sits in front.
            assert.equal(status, 400);
            assert.deepEqual(json(response), { error: 'only one Authorization header is allowed' });
            return;
          }
          if (endpoint.auth && !carriesToken) {
            // Without the token nothing under /v1 is ever answered with data.
            assert.ok(
              status >= 400,
              `${endpoint.method} ${endpoint.path} without the token answered ${status}`,
            );
            assert.equal(status, 401);
            assert.deepEqual(json(response), { error: 'unauthorized' });
          }
          if (endpoint.auth && authorization[0] === `Bearer ${token}`) {
            assert.notEqual(status, 401, 'the exact bearer header first must be accepted');
          }
          if (!endpoint.auth) assert.notEqual(status, 401, '/health needs no token');
        },
      ),
      { numRuns: RUNS },
    );
    await assertAlive(fx.broker);
  });

  it('bogus, duplicated and lying Content-Length and Transfer-Encoding', async () => {
    const lengths = fc.oneof(
      fc.constantFrom(
        'abc',
        '-1',
        '1e3',
        '0x10',
        '+5',
        '',
        ' 5',
        '99999999999999999999',
        '65537',
        '4294967296',
        '5, 5',
        '5,6',
      ),
      fc.nat({ max: 200 }).map(String),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS(fx.ids[2]!)),
        fc.array(lengths, { minLength: 1, maxLength: 2 }),
        fc.option(fc.constantFrom('chunked', 'gzip', 'chunked, gzip', 'identity', 'xchunked')),
        fc.constantFrom('{"title":"t","message":"m"}', '{"status":"resolved"}', '', '{"title":'),
        async (endpoint, declared, encoding, text) => {
          const probe: Probe = {
            method: endpoint.method,
            target: endpoint.path,
            headers: [
              ['Authorization', `Bearer ${fx.broker.token}`],
              ['Content-Type', 'application/json'],
              ...declared.map((value): [string, string] => ['Content-Length', value]),
              ...(encoding === null ? [] : [['Transfer-Encoding', encoding] as [string, string]]),
            ],
            body: Buffer.from(text),
            contentLength: false,
            mayClose: declared.some((value) => Number(value) > 65536),
          };
          const response = await check(fx.broker, probe);
          // A plain decimal length over the limit (and within what the HTTP parser can represent).
          const single = declared.length === 1 && /^\d+$/.test(declared[0]!) ? Number(declared[0]) : 0;
          if (single > 65536 && single < 1e15 && encoding === null) {
            assert.ok(
              response.status === 413 || response.status === undefined,
              `declared too large: ${response.status}`,
            );
          }
        },
      ),
      { numRuns: RUNS },
    );
    await assertAlive(fx.broker);
  });

  it('random query strings: repeated parameters, pollution keys and percent-encoding garbage', async () => {
    const key = fc.oneof(
      fc.constantFrom('limit', 'status', 'type', 'project', 'agent', 'unresolved'),
      pollutionKey,
      fc.constantFrom('limit[]', 'status[0]', 'type[__proto__]', ''),
      fc.string({ maxLength: 8 }),
    );
    const value = fc.oneof(
      fc.constantFrom(
        'active',
        'Dismissed',
        'resolved',
        'info',
        'warning',
        'p0',
        'p1',
        'true',
        'false',
        'yes',
        '0',
        '',
      ),
      fc.constantFrom(
        '-1',
        '0',
        '1',
        '500',
        '501',
        '1e3',
        '0x10',
        '99999999999999999999999',
        ' 7 ',
        '2.5',
        'NaN',
      ),
      nastyString(20),
    );
    const encode = fc.constantFrom('percent', 'raw', 'garbage');
    const garbage = fc.constantFrom(
      '%',
      '%Z',
      '%zz',
      '%E0%A4%A',
      '%C0%AF',
      '%00',
      '%FF%FE',
      '%%',
      '%u0041',
      '+',
      '&&',
      '==',
      ';',
      '#frag',
    );
    const part = fc.tuple(key, value, encode, garbage).map(([k, v, mode, junk]) => {
      if (mode === 'percent') return `${pct(k)}=${pct(v)}`;
      if (mode === 'garbage') return `${pct(k)}${junk}=${junk}${pct(v)}`;
      // Raw: only what a request line can carry (no spaces, controls or non-ASCII).
      return `${k}=${v}`.replace(/[^\x21-\x7e]/g, '');
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS(fx.ids[0]!).filter((endpoint) => endpoint.method === 'GET')),
        fc.array(part, { maxLength: 6 }),
        async (endpoint, parts) => {
          // A GET never changes anything, whatever its query.
          const response = await check(
            fx.broker,
            {
              method: 'GET',
              target: `${endpoint.path}?${parts.join('&')}`,
              headers: [['Authorization', `Bearer ${fx.broker.token}`]],
            },
            { neverChanges: true },
          );
          assert.ok(response.status === 200 || response.status === 400, `GET answered ${response.status}`);
          if (endpoint.path === '/v1/notifications' && response.status === 200) {
            const list = json(response);
            assert.ok(Array.isArray(list) && list.length <= 500);
          }
        },
      ),
      { numRuns: RUNS },
    );
    await assertAlive(fx.broker);
  });

  it('random path ids and paths at every endpoint', async () => {
    const id = fc.oneof(
      fc.constantFrom(...fx.ids),
      fc.uuid(),
      nastyString(40).map(pct),
      fc.constantFrom(
        '%zz',
        '%',
        '%00',
        '%2F',
        '..%2F..%2Fetc%2Fpasswd',
        '..',
        '.',
        '__proto__',
        'constructor',
        "1'%20OR%20'1'='1",
        '%F0%9F%98%80',
        '%ED%A0%80',
        '%C0%80',
        'a'.repeat(99),
        'a'.repeat(101),
        'a'.repeat(5000),
        `${fx.ids[0]}%20`,
        `${fx.ids[0]!.toUpperCase()}`,
        '*',
        ';',
        'a;b',
        '"',
        '%22',
        '\\',
      ),
    );
    const shape = fc.constantFrom(
      (value: string) => ({ method: 'GET', target: `/v1/notifications/${value}` }),
      (value: string) => ({ method: 'PATCH', target: `/v1/notifications/${value}` }),
      (value: string) => ({ method: 'POST', target: `/v1/notifications/${value}/dismiss` }),
      (value: string) => ({ method: 'GET', target: `/v1/notifications/${value}/dismiss` }),
      (value: string) => ({ method: 'POST', target: `/v1/notifications/${value}/dismiss/${value}` }),
      (value: string) => ({ method: 'GET', target: `/health/${value}` }),
      (value: string) => ({ method: 'GET', target: `/v1/${value}` }),
      (value: string) => ({ method: 'DELETE', target: `/v1/notifications/${value}` }),
      (value: string) => ({ method: 'OPTIONS', target: `/v1/notifications/${value}` }),
      (value: string) => ({ method: 'HEAD', target: `/v1/notifications/${value}` }),
      (value: string) => ({ method: 'GET', target: `//v1/notifications/${value}` }),
      (value: string) => ({ method: 'GET', target: `/v1/notifications/${value}?x=${value}` }),
    );
    await fc.assert(
      fc.asyncProperty(
        id,
        shape,
        fc.constantFrom('{"status":"resolved"}', '{"status":"active"}', ''),
        async (value, make, text) => {
          const { method, target } = make(value);
          const response = await check(fx.broker, {
            method,
            target,
            headers: [
              ['Authorization', `Bearer ${fx.broker.token}`],
              ['Content-Type', 'application/json'],
            ],
            ...(method !== 'GET' && method !== 'HEAD' && { body: Buffer.from(text) }),
          });
          const known = fx.ids.includes(value);
          if (!known && method === 'GET' && target === `/v1/notifications/${value}`) {
            assert.ok(response.status! >= 400, `GET of unknown id ${value} answered ${response.status}`);
          }
        },
      ),
      { numRuns: RUNS },
    );
    await assertAlive(fx.broker);
  });

  it('garbage request lines, methods, versions and header framing', async () => {
    const printable = fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
      minLength: 1,
      maxLength: 30,
    });
    const line = fc.oneof(
      fc
        .tuple(
          fc.oneof(
            fc.constantFrom('GET', 'POST', 'PATCH', 'get', 'CONNECT', 'TRACE', 'PRI', 'M-SEARCH', 'PROPFIND'),
            printable,
          ),
          fc.constantFrom(
            '/health',
            '/v1/notifications',
            '*',
            'http://127.0.0.1/v1/health',
            'health',
            '/v1/notifications/../health',
          ),
          fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1x', '', 'http/1.1'),
        )
        .map(([method, target, version]) => `${method} ${target} ${version}`.trimEnd()),
      fc.uint8Array({ maxLength: 100 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    const headerBlock = fc.array(
      fc.oneof(
        fc.tuple(headerName, headerValue(30)).map(([name, value]) => `${name}: ${value}`),
        fc.constantFrom(
          'Authorization: Bearer \r\n x',
          'X-Folded: a\r\n continued',
          'NoColon',
          ': empty',
          'Bad Name: x',
          'X: \u0000',
          'X: a\rb',
          'Host: evil.example',
          'Host:',
          'Expect: 100-continue',
          'Expect: nonsense',
          'Upgrade: h2c',
          'Content-Length: 3',
        ),
      ),
      { maxLength: 4 },
    );
    await fc.assert(
      fc.asyncProperty(line, headerBlock, fc.boolean(), async (requestLine, headers, withHost) => {
        const before = await snapshot(fx.broker);
        const lines = [
          requestLine,
          ...(withHost ? [`Host: 127.0.0.1:${fx.broker.port}`] : []),
          `Authorization: Bearer ${fx.broker.token}`,
          ...headers,
          'Connection: close',
        ];
        const response = await rawRequest(
          fx.broker.port,
          Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
          {
            endAfterWrite: true,
          },
        );
        const context = JSON.stringify(lines);
        if (response.status !== undefined) {
          assert.ok(response.status < 500, `${context}: answered ${response.status}`);
          if (!requestLine.startsWith('HEAD ')) assertErrorShape(response.status, response.body, context);
        }
        assert.equal(await snapshot(fx.broker), before, `${context} changed stored rows`);
      }),
      { numRuns: RUNS },
    );
    await assertAlive(fx.broker);
  });

  it('non-loopback Host headers are refused (DNS rebinding) with the error shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.domain(),
          fc.constantFrom('127.0.0.1', 'localhost', '127.0.0.1:1', 'LOCALHOST:0', '[::1]', 'evil.example:80'),
        ),
        fc.constantFrom(...ENDPOINTS(fx.ids[0]!)),
        async (host, endpoint) => {
          const response = await check(fx.broker, {
            method: endpoint.method,
            target: endpoint.path,
            noHost: true,
            headers: [
              ['Host', host],
              ['Authorization', `Bearer ${fx.broker.token}`],
            ],
          });
          assert.ok(response.status! >= 400, `Host ${host} answered ${response.status}`);
        },
      ),
      { numRuns: Math.ceil(RUNS / 2) },
    );
    await assertAlive(fx.broker);
  });
});
