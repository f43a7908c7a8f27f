/**
 * The oldest Node.js Notify runs on. better-sqlite3 13 is built on Node-API 10, which came in 22.14;
 * on an older Node.js it crashes at the first statement instead of failing to load.
 */
export const NODE_FLOOR = [22, 14] as const;

export function meetsNodeFloor(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor >= NODE_FLOOR[1]);
}

export function nodeFloorMessage(version: string): string {
  return (
    `Notify needs Node.js ${NODE_FLOOR.join('.')} or later (24 recommended); this is Node.js ${version}. ` +
    'Get a current one from https://nodejs.org/, or without touching the system: ' +
    'npm install --prefix ~/.local/node24 node@24 && export PATH="$HOME/.local/node24/node_modules/node/bin:$PATH"'
  );
}
