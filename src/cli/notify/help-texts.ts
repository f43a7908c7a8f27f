/** Every help screen of `notify`: each fits one terminal screen of 80 columns and ends with examples. */

const CONNECTION = `Connection (every broker command):
  --port <n>     default NOTIFY_PORT, else "port" in config.json, else 47821
  --token <t>    default NOTIFY_TOKEN, else "authToken" in config.json`;

export const USAGE = `notify: ask a person for attention through the local Notify broker.

Usage:
  notify <command> [options]
  notify "Title" ["Message"] [options]     same as notify send

Commands:
  send            create a notification (or update the one with the same --key)
  list            list notifications, newest first
  get <id>        show one notification
  resolve <id>    mark a notification resolved: the condition is over
  dismiss <id>    dismiss a notification: seen, nothing left to do
  health          check that the broker is running
  token           print the broker's access token (from config.json)
  install-skill   teach Claude Code or Codex to use Notify
  relay           pair with a relay: your notifications on your phone
  help [topic]    send, list, get, resolve, dismiss, relay, install-skill

${CONNECTION}

Examples:
  notify "Build finished" "All 312 tests passed" --type completed
  notify "Approve deploy?" "prod, v2.3" --type permission-required --key deploy
  notify list --unresolved
  notify resolve 0193f2a1-7c4e-7d2a-9b1e-3f6a8c2d4e10

Exit codes: 0 success, 1 failure, 2 send refused (401 or 403),
3 not found (get, resolve, dismiss). Also: --help, -h, --version.`;

const SEND = `notify send: create a notification (POST /v1/notifications).

Usage:
  notify send --title <text> --message <text> [options]
  notify send "Title" ["Message"] [options]
  notify "Title" ["Message"] [options]    (when "Title" is no command word)

One positional argument is both title and message. Text is trimmed.

Options:
  --title <text>           1-200 characters, or the first positional
  --message, --msg <text>  1-4000 characters, or the second positional
  --type <id>              info (default), success, warning, error, completed,
                           input_required, permission_required, blocked, or a
                           custom type; case and - or _ do not matter
  --priority <p>           low, normal, high, critical; default: the type's
                           defaultPriority in config.json, else normal
  --agent <name>           who asks; default NOTIFY_AGENT, else cli
  --agent-instance <id>    which run of that agent
  --project <name>         project name
  --key <key>              condition key: sending the same key again updates
                           the active notification instead of adding one
  --cwd <path>             working directory; default the current one
  --pid <n>                process id; an invalid value is left out

${CONNECTION}

Prints the stored notification as JSON. Exit 2: the token was refused.

Examples:
  notify "Tests failed" "3 failures in auth.spec.ts" --type error
  notify send --title "Pick a database" --msg "Postgres or SQLite?" \\
    --type input-required --priority high --key db-choice
  NOTIFY_AGENT=nightly-ci notify "Nightly build green" --type completed`;

const LIST = `notify list: list notifications, newest first (GET /v1/notifications).

Usage:
  notify list [options]

Options:
  --unresolved [true|false]  only active ones; bare means true, and true
                             overrides --status
  --status <s>               active, dismissed or resolved
  --type <id>                one type, e.g. input-required
  --project <name>           exact project name
  --agent <name>             exact agent name
  --limit <n>                how many; default 20, at most 500
  --json                     print a JSON array instead of lines

${CONNECTION}

Each line: <id> [<type>/<priority>] <status> <title> (<agent>);
"(no notifications)" when nothing matches.

Examples:
  notify list --unresolved
  notify list --type error --project api --limit 5
  notify list --status dismissed --json`;

const idTopic = (command: string, summary: string, detail: string) =>
  `notify ${command}: ${summary}

Usage:
  notify ${command} <id> [--port <n>] [--token <t>]

${detail}
Exit 3: no notification has that id (notify list shows the ids).

${CONNECTION}

Example:
  notify ${command} 0193f2a1-7c4e-7d2a-9b1e-3f6a8c2d4e10`;

const GET = idTopic('get', 'show one notification (GET /v1/notifications/<id>).', 'Prints it as JSON.');

const RESOLVE = idTopic(
  'resolve',
  'mark a notification resolved (PATCH status resolved).',
  'For a condition that is over: the question was answered, the build is\ngreen again. Prints the updated notification as JSON.',
);

const DISMISS = idTopic(
  'dismiss',
  'dismiss a notification (POST .../dismiss).',
  'For a notification that was seen and needs nothing more; its toast closes.\nA broker without the dismiss endpoint gets PATCH status dismissed instead.\nPrints the updated notification as JSON.',
);

const RELAY = `notify relay: pair this machine with a relay, which shows your notifications
on your phone and sends your answers back (docs/relay-protocol.md).

Usage:
  notify relay pair --url <url> [--name <name>] [--sender-name <name>]
                    [--allow-private] [--json]
  notify relay status [--json]

pair: shows a code and a page of the relay; approve there (Ctrl+C cancels).
Then the profile and its credential are saved in the broker, never printed.
  --url <url>           the relay: https, or http on localhost only
  --allow-private       allow a relay on this machine or a private network
                        (needed for http://localhost too)
  --name <name>         profile name; default the relay's name (max 100)
  --sender-name <name>  how the relay lists this machine; default hostname
  --json                one JSON object per state on stdout
A profile with the same URL is updated; a new one starts disabled:
  notifyctl providers enable <id>, then notifyctl routes add --provider <id>

status: checks each profile's credential with its relay; exit 1 when one
is not connected. --json: one JSON object per profile.

${CONNECTION}

Examples:
  notify relay pair --url https://relay.example.com
  notify relay pair --url http://localhost:8080 --allow-private --name test
  notify relay status`;

const INSTALL_SKILL = `notify install-skill: teach an agent tool to ask for attention.

Usage:
  notify install-skill <claude|codex> [options]
  notify install skill <claude|codex> [options]

Writes the notify skill, which ships inside notify (no network needed):
  claude   Claude Code: SKILL.md in ~/.claude/skills/notify/
  codex    Codex: SKILL.md and agents/openai.yaml in ~/.agents/skills/notify/

Options:
  --scope user|project   user (default), or project: .claude/skills/notify/
                         or .agents/skills/notify/ in the current directory
  --path <dir>           install into <dir>/notify/ (overrides --scope)
  --force                replace skill files that were changed
  --dry-run              show what would happen; write nothing

Identical files are left alone ("up to date"). A changed file is never
overwritten without --force: then nothing is written and the exit code is 1.
Nothing outside the notify skill folder is ever touched.

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
