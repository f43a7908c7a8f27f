// Regenerates the settings tables of docs/providers.md from the provider declarations (after a build),
// formatted as `npm run check` expects.
import { readFileSync, writeFileSync } from 'node:fs';
import { stdout } from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import * as prettier from 'prettier';
import { PROVIDER_KINDS } from '../dist/src/delivery/registry.js';
import { updateProviderDocs } from '../dist/src/delivery/settings-doc.js';

const file = fileURLToPath(new URL('../docs/providers.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const options = { ...(await prettier.resolveConfig(file)), filepath: file };
const after = await prettier.format(updateProviderDocs(before, PROVIDER_KINDS), options);
if (after !== before) writeFileSync(file, after);
stdout.write(after === before ? 'docs/providers.md is up to date.\n' : 'docs/providers.md updated.\n');
