/**
 * The port NOTIFY_PORT moves the broker to, when it is set: what `service install` and `hooks install`
 * write into what they install, since neither a login service nor an agent's hooks see this shell's
 * environment (without it they reach config.json's port). Undefined when unset or not a port.
 */
export function portInForce(env: NodeJS.ProcessEnv): number | undefined {
  const text = env['NOTIFY_PORT']?.trim() ?? '';
  if (!/^[0-9]{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** How a port is named in doctor's and status's words: `port 5000`, or config.json's when none is written. */
export function portWords(port: number | undefined): string {
  return port === undefined ? "config.json's port" : `port ${port}`;
}
