/**
 * Every line `notifyctl doctor` can print, in its order, with what it checks: the one list that
 * docs/service.md's table is generated from (scripts/docs-doctor.mjs), so the two cannot drift.
 */
export const DOCTOR_LINES = [
  { name: 'config', checks: 'config.json exists, is valid JSON and holds a token' },
  {
    name: 'broker',
    checks:
      '`GET /health` answers at the address `notify` would use (`--port`, `NOTIFY_PORT`, config), from a program of your own user ([who listens on the port](cli.md#who-listens-on-the-port))',
  },
  {
    name: 'token',
    checks: '`GET /v1/health` accepts the token `notify` would send (`--token`, `NOTIFY_TOKEN`, config)',
  },
  {
    name: 'toasts',
    checks:
      'the broker shows toasts, and through which notification server, or why not (`GET /v1/presentation`)',
  },
  { name: 'tray', checks: 'the broker has a tray icon in the panel, or why not (`GET /v1/presentation`)' },
  {
    name: 'sounds',
    checks:
      'the broker plays sounds, and through which player, or why not: a player that failed every play since the last sound that played is named with its failure (`GET /v1/presentation`)',
  },
  {
    name: 'desktop',
    checks:
      'only when the broker cannot be asked: a notification server answers `GetServerInformation` on the session D-Bus',
  },
  {
    name: 'sound',
    checks:
      'only when the broker cannot be asked: a sound player is on the PATH (pw-play, paplay, aplay, ffplay, afplay) and plays 50 ms of silence (exit status 0)',
  },
  {
    name: 'hooks',
    checks:
      "which agent tools (Claude Code, Codex, Gemini CLI) run Notify's hooks, in user scope; for Codex, whether it trusts Notify's entries (it skips the others, `codex exec` without a word)",
  },
  {
    name: 'focus',
    checks:
      'which places (tmux panes, kitty and WezTerm windows, X11 windows) Notify can see focus for, so toasts and sounds wait while you look at the agent ([focus](focus.md)); Wayland hides it',
  },
  { name: 'service', checks: 'the user service is installed, and its state' },
] as const;

export type DoctorLineName = (typeof DOCTOR_LINES)[number]['name'];

const START = '<!-- doctor-lines:start -->';
const END = '<!-- doctor-lines:end -->';

/** The `| line | checks |` table of docs/service.md. */
export function doctorTable(): string {
  return [
    '| line | checks |',
    '| --- | --- |',
    ...DOCTOR_LINES.map((line) => `| ${line.name} | ${line.checks} |`),
  ].join('\n');
}

/** The markdown with the table between its markers replaced by the generated one (unformatted). */
export function updateDoctorDocs(markdown: string): string {
  const from = markdown.indexOf(START);
  const to = markdown.indexOf(END);
  if (from === -1 || to < from) throw new Error(`docs/service.md has no "${START}" ... "${END}" section.`);
  return `${markdown.slice(0, from + START.length)}\n${doctorTable()}\n${markdown.slice(to)}`;
}
