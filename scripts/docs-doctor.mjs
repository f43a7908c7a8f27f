// Regenerates the table of doctor lines in docs/service.md from src/cli/notifyctl/doctor-lines.ts (after
// a build), formatted as `npm run check` expects.
import { readFileSync, writeFileSync } from 'node:fs';
import { stdout } from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import * as prettier from 'prettier';
import { updateDoctorDocs } from '../dist/src/cli/notifyctl/doctor-lines.js';

const file = fileURLToPath(new URL('../docs/service.md', import.meta.url));
const before = readFileSync(file, 'utf8');
const options = { ...(await prettier.resolveConfig(file)), filepath: file };
const after = await prettier.format(updateDoctorDocs(before), options);
if (after !== before) writeFileSync(file, after);
stdout.write(after === before ? 'docs/service.md is up to date.\n' : 'docs/service.md updated.\n');
