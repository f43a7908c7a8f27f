import { readFileSync } from 'node:fs';

/** Set by the client bundle (scripts/bundle-client.mjs), which has no package.json beside it. */
declare const __NOTIFY_VERSION__: string | undefined;

/** The product version: package.json's, shared by `notify --version` and GET /v1/health. */
export const VERSION: string =
  typeof __NOTIFY_VERSION__ === 'string'
    ? __NOTIFY_VERSION__
    : (
        JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
          version: string;
        }
      ).version;
