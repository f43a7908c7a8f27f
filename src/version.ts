import { readFileSync } from 'node:fs';

/** The product version: package.json's, shared by `notify --version` and GET /v1/health. */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
