/** The start-up warning for a relay that serves plain HTTP where other machines can reach it. */
import { isIP } from 'node:net';

/** Addresses only this machine reaches: 127.0.0.0/8, ::1 (and 127.x mapped into IPv6), `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare);
  return false;
}

/** One line for the log when passwords, cookies and credentials would cross a network in the clear. */
export function plainHttpWarning(host: string, tls: boolean): string | undefined {
  if (tls || isLoopbackHost(host)) return undefined;
  return `Warning: serving plain HTTP on ${host}, which other machines can reach: passwords, session cookies and installation credentials cross the network unencrypted. Serve HTTPS with --tls-cert and --tls-key, or listen on 127.0.0.1 behind an HTTPS reverse proxy.`;
}
