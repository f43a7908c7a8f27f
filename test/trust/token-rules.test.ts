import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TOKEN_RULE_MESSAGE } from '../../src/config/settings.js';
import {
  createTempHome,
  NOTIFYD,
  replaceConfigFile,
  startBroker,
  writeConfig,
  type TempHome,
} from '../support/broker-process.js';
import { runNode } from '../support/run-node.js';

/** The whole table of the rule is in src/config/settings.test.ts; here, the broker's start. */
const REFUSED: [name: string, token: string][] = [
  ['15 characters', 'abcdefghij12345'],
  ['a space', 'abcdefgh ijklmnop'],
];

const logText = (home: TempHome) =>
  readdirSync(home.logDir)
    .map((name) => readFileSync(join(home.logDir, name), 'utf8'))
    .join('');

describe('authToken rules', () => {
  for (const [name, token] of REFUSED) {
    it(`refuses to start with a token of ${name}, naming the rule and never the token`, async () => {
      const home = createTempHome();
      try {
        writeConfig(home, { port: 1, authToken: token });
        const result = await runNode(NOTIFYD, [], { env: home.env });
        assert.equal(result.code, 1);
        assert.equal(result.stderr, `Notify cannot start: ${home.configFile}: ${TOKEN_RULE_MESSAGE}\n`);
        assert.equal(result.stderr.includes(token), false);
        assert.equal(
          JSON.parse(readFileSync(home.configFile, 'utf8')).authToken,
          token,
          'file left as it is',
        );
      } finally {
        home.cleanup();
      }
    });
  }

  it('accepts 16 printable ASCII characters, punctuation included', async () => {
    const token = `a!#$%&'()*+,-./:`;
    const broker = await startBroker({ config: { authToken: token } });
    try {
      const response = await fetch(`${broker.baseUrl}/v1/health`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 200);
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });

  it('keeps the current token when a hot reload brings a token that breaks the rule', async () => {
    const broker = await startBroker();
    try {
      const config = JSON.parse(readFileSync(broker.home.configFile, 'utf8')) as Record<string, unknown>;
      replaceConfigFile(broker.home, { ...config, authToken: 'short token', maxVisibleToasts: 2 });
      const expected = `config not reloaded, keeping the current settings: ${broker.home.configFile}: ${TOKEN_RULE_MESSAGE}`;
      for (let waited = 0; !logText(broker.home).includes(expected); waited += 100) {
        assert.ok(waited < 10_000, 'the refused reload is logged');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal((await broker.request('GET', '/v1/health')).status, 200);
      const refused = await fetch(`${broker.baseUrl}/v1/health`, {
        headers: { authorization: 'Bearer short token' },
      });
      assert.equal(refused.status, 401);
    } finally {
      await broker.stop();
      broker.home.cleanup();
    }
  });
});
