import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import * as prettier from 'prettier';
import { PROVIDER_KINDS } from '../../src/delivery/registry.js';
import { settingsTable, updateProviderDocs } from '../../src/delivery/settings-doc.js';
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
    assert.equal(cells[1], setting.type);
    assert.equal(cells[2], setting.required ? 'yes' : 'no');
    assert.equal(cells[3], setting.secret ? 'yes' : 'no');
  }
});

it('refuses to generate when a provider has no section in the docs', () => {
  assert.throws(() => updateProviderDocs('# Providers\n', [webhook]), /no "<!-- settings:webhook:start -->"/);
});
