import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A self-signed certificate for `localhost` (or the names given) and 127.0.0.1, made with openssl for one test run. Its
 * own CA: a client trusts it only when given `certFile` (for a child Node, NODE_EXTRA_CA_CERTS).
 */
export interface ThrowawayCert {
  key: Buffer;
  cert: Buffer;
  certFile: string;
  /** Deletes the key and certificate files. */
  remove(): void;
}

/** `names` are the DNS names it is valid for, besides 127.0.0.1. */
export function makeThrowawayCert(names: readonly string[] = ['localhost']): ThrowawayCert {
  const dir = mkdtempSync(join(tmpdir(), 'notify-cert-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${names[0]}`,
      '-addext',
      `subjectAltName=${names.map((name) => `DNS:${name}`).join(',')},IP:127.0.0.1`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return {
    key: readFileSync(keyFile),
    cert: readFileSync(certFile),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
