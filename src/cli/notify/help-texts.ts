/** Every help screen of `notify`; each fits one terminal screen and ends with examples. */

const CONNECTION = `Connection options (every broker command):
  --port <n>      broker port; default NOTIFY_PORT, else config.json "port", else 47821
  --token <t>     access token; default NOTIFY_TOKEN, else config.json "authToken"`;

export const USAGE = `notify: ask a person for attention through the local Notify broker.

Usage:
  notify <command> [options]
  notify "Title" ["Message"] [options]     same as notify send

Commands:
  send            create a notification, or update the active one with the same --key
  list            list notifications, newest first
  get <id>        show one notification
  resolve <id>    mark a notification resolved: the condition is over
  dismiss <id>    dismiss a notification: seen, nothing left to do
  health          check that the broker is running
  token           print the broker's access token (from config.json)
  install-skill   teach Claude Code or Codex to use Notify (also: install skill)
  relay           pair with an off-device relay (not available yet)
  help [topic]    help on send, list, get, resolve, dismiss, relay, install-skill

${CONNECTION}

Examples:
  notify "Build finished" "All 312 tests passed" --type completed
  notify send --title "Approve deploy?" --message "prod, v2.3" --type permission-required
  notify list --unresolved
  notify resolve 0193f2a1-7c4e-7d2a-9b1e-3f6a8c2d4e10

Exit codes: 0 success; 1 failure; 2 send refused (401 or 403); 3 not found (get, resolve, dismiss).
Also: notify --help, notify -h, notify --version.`;

const SEND = `notify send: create a notification (POST /v1/notifications).

Usage:
  notify send --title <text> --message <text> [options]
  notify send "Title" ["Message"] [options]
  notify "Title" ["Message"] [options]      when "Title" is not a command word

A single positional argument is both title and message. Text is trimmed.

Options:
  --title <text>            1-200 characters (or the first positional argument)
  --message, --msg <text>   1-4000 characters (or the second positional argument)
  --type <id>               info (default), success, warning, error, input_required,
                            permission_required, completed, blocked, or a custom type;
                            case and - or _ do not matter (input-required works)
  --priority <p>            low, normal, high or critical; default: the type's, else normal
  --agent <name>            who asks; default NOTIFY_AGENT, else cli (max 100)
  --agent-instance <id>     which run of that agent (max 100)
  --project <name>          project name (max 200)
  --key <key>               condition key (max 100): sending again with the same key updates
                            the active notification instead of adding a second one
  --cwd <path>              working directory; default the current one (max 1024)
  --pid <n>                 process id; an invalid value is left out
${CONNECTION}

Prints the stored notification as JSON. Exit 2 when the broker refuses the token.

Examples:
  notify "Tests failed" "3 failures in auth.spec.ts" --type error --priority high
  notify send --title "Waiting for you" --msg "Pick a database" --type input-required --key db-choice
  NOTIFY_AGENT=nightly-ci notify "Nightly build green" --type completed`;

const LIST = `notify list: list notifications, newest first (GET /v1/notifications).

Usage:
  notify list [options]

Options:
  --unresolved [true|false]   only active notifications; bare means true, and true overrides --status
  --status <s>                active, dismissed or resolved (case and - or _ do not matter)
  --type <id>                 one type, e.g. input-required
  --project <name>            exact project name
  --agent <name>              exact agent name
  --limit <n>                 how many; default 20, the broker keeps it within 1-500
  --json                      print the notifications as a JSON array
${CONNECTION}

Each line: <id> [<type>/<priority>] <status> <title> (<agent>), or "(no notifications)".

Examples:
  notify list --unresolved
  notify list --type error --project api --limit 5
  notify list --status dismissed --json`;

const idTopic = (command: string, summary: string, detail: string, example: string) =>
  `notify ${command}: ${summary}

Usage:
  notify ${command} <id> [--port <n>] [--token <t>]

${detail}
Exit 3 when no notification has that id. Ids are shown by notify list and notify send.

${CONNECTION}

Example:
  ${example}`;

const GET = idTopic(
  'get',
  'show one notification (GET /v1/notifications/<id>).',
  'Prints the notification as JSON.',
  'notify get 0193f2a1-7c4e-7d2a-9b1e-3f6a8c2d4e10',
);

const RESOLVE = idTopic(
  'resolve',
  'mark a notification resolved (PATCH status resolved).',
  'Use it when the condition is over (the question was answered, the build is green again).\nPrints the updated notification as JSON.',
  'notify resolve 0193f2a1-7c4e-7d2a-9b1e-3f6a8c2d4e10',
);

const DISMISS = idTopic(
  'dismiss',
  'dismiss a notification (POST .../dismiss, else PATCH status dismissed).',
  'Use it when the notification was seen and needs nothing more; its toast closes.\nPrints the updated notification as JSON.',
  'notify dismiss 0193f2a1-7c4e-7d2a-9b1e-3f6a8c2d4e10',
);

const RELAY = `notify relay: deliver notifications to an off-device relay.

Not available yet: relay pairing arrives in a later release of Notify.

It will offer:
  notify relay pair --url <url> [--name <name>] [--sender-name <name>] [--allow-private] [--json]
      pair this machine with a relay: shows a verification URL and a short code to approve
  notify relay status [--json]
      check every paired relay's credential and show its state

Example (later):
  notify relay pair --url https://relay.example.com`;

const INSTALL_SKILL = `notify install-skill: teach an agent tool to ask for attention through Notify.

Usage:
  notify install-skill <claude|codex> [options]
  notify install skill <claude|codex> [options]

Writes the notify skill, which ships inside notify (no network needed):
  claude  Claude Code: SKILL.md in ~/.claude/skills/notify/ (project: .claude/skills/notify/)
  codex   Codex: SKILL.md and agents/openai.yaml in ~/.agents/skills/notify/
          (project: .agents/skills/notify/)

Options:
  --scope user|project   user (default) or the current directory's project
  --path <dir>           install into <dir>/notify/ instead (overrides --scope)
  --force                replace skill files you changed
  --dry-run              show what would happen; write nothing

Files already identical are left alone ("up to date"). A changed file is never overwritten
without --force; then nothing is written and the exit code is 1. Only the notify skill folder
is ever written to.

Examples:
  notify install-skill claude
  notify install-skill codex --scope project --dry-run
  notify install skill claude --path ./my-skills --force`;

/** Spec "help": these topics; any other topic shows the general usage. */
export const HELP_TOPICS: Record<string, string> = {
  send: SEND,
  list: LIST,
  get: GET,
  resolve: RESOLVE,
  dismiss: DISMISS,
  relay: RELAY,
  'install-skill': INSTALL_SKILL,
};
