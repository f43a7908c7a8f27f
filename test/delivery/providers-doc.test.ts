import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import * as prettier from 'prettier';
import { REASON_CODE_FAMILIES, REASON_CODES } from '../../src/delivery/reason-codes.js';
import { PROVIDER_KINDS } from '../../src/delivery/registry.js';
import type { ProviderKind } from '../../src/delivery/provider.js';
import { ntfy } from '../../src/delivery/providers/ntfy/ntfy.js';
import { teams } from '../../src/delivery/providers/teams/teams.js';
import {
  capabilities,
  capabilitiesLine,
  overviewTable,
  settingsTable,
  updateProviderDocs,
} from '../../src/delivery/settings-doc.js';
import { webhook } from '../../src/delivery/providers/webhook/webhook.js';

const DOC = fileURLToPath(new URL('../../../docs/providers.md', import.meta.url));

it('docs/providers.md carries the settings tables the declarations generate (else run npm run docs:providers)', async () => {
  const current = readFileSync(DOC, 'utf8');
  const options = { ...(await prettier.resolveConfig(DOC)), filepath: DOC };
  const expected = await prettier.format(updateProviderDocs(current, PROVIDER_KINDS), options);
  assert.equal(current, expected, 'docs/providers.md is stale: run npm run docs:providers');
});

it('lists every declared setting of a provider with its type, whether required and whether secret', () => {
  const table = settingsTable(webhook);
  for (const setting of webhook.settings) {
    const row = table.split('\n').find((line) => line.startsWith(`| \`${setting.name}\` |`));
    assert.ok(row, `no row for ${setting.name}`);
    const cells = row.split(' | ');
    assert.equal(cells[1], setting.type === 'url' ? 'http(s) URL' : setting.type);
    assert.equal(cells[2], setting.required ? 'yes' : 'no');
    assert.equal(cells[3], setting.secret ? 'yes' : 'no');
  }
});

it('refuses to generate when a provider has no section in the docs', () => {
  const overview = '<!-- providers:overview:start -->\n<!-- providers:overview:end -->\n';
  assert.throws(
    () => updateProviderDocs('# Providers\n', [webhook]),
    /no "<!-- providers:overview:start -->"/,
  );
  assert.throws(
    () => updateProviderDocs(`# Providers\n${overview}`, [webhook]),
    /no "<!-- settings:webhook:start -->"/,
  );
});

it('gives every kind one overview row: send, update, clear, answer, its secret settings and what the person gives', () => {
  const rows = overviewTable(PROVIDER_KINDS).split('\n').slice(2);
  assert.equal(rows.length, PROVIDER_KINDS.length);
  const row = (id: string) =>
    rows
      .find((line) => line.includes(`(\`${id}\`)`))
      ?.split(' | ')
      .slice(1);
  assert.deepEqual(row('ntfy'), [
    'yes',
    'yes',
    'yes',
    'with a paired relay',
    '`topic`, `accessToken`, `password`',
    '`topic` |',
  ]);
  assert.deepEqual(row('relay'), ['yes', 'yes', 'yes', 'yes', '`credential`', '`url`, `credential` |']);
  assert.deepEqual(row('teams'), ['yes', 'no', 'no', 'no', '`webhookUrl`', '`webhookUrl` |']);
  assert.deepEqual(row('google-chat'), ['yes', 'no', 'no', 'no', '`webhookUrl`', '`webhookUrl` |']);
});

it('says a kind that listens for answers can answer, so the channels added later show it', () => {
  const listening: ProviderKind = {
    ...webhook,
    id: 'chat',
    listen: () => Promise.resolve({ kind: 'stopped' }),
  };
  assert.deepEqual(capabilities(listening), ['send', 'update', 'clear', 'answer']);
  assert.equal(capabilitiesLine(listening), 'Capabilities: send, update, clear, answer.');
  assert.match(overviewTable([listening]), /\| yes \| yes \| yes \| yes \|/);
  assert.equal(capabilitiesLine(teams), 'Capabilities: send only.');
});

it("says ntfy answers only with a paired relay: its buttons post to the relay's answer link", () => {
  assert.equal(capabilitiesLine(ntfy), 'Capabilities: send, update, clear, answer (with a paired relay).');
  assert.match(overviewTable([ntfy]), /\| yes \| yes \| yes \| with a paired relay \|/);
});

it('explains every reason code a delivery can end with in the reason code table, and no other', () => {
  const lines = readFileSync(DOC, 'utf8').split('\n');
  const header = lines.findIndex((line) => /^\| Reason +\| Meaning +\| Outcome +\|$/.test(line));
  assert.ok(header >= 0, 'docs/providers.md has no "| Reason | Meaning | Outcome |" table');
  const table: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    table.push(line);
  }
  const documented = table.flatMap((row) =>
    [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]),
  );
  assert.deepEqual(documented.sort(), [...REASON_CODES, ...REASON_CODE_FAMILIES].sort());
});
