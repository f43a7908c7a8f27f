/**
 * The notify skill both agent tools load: product documentation written for an agent. Embedded as a
 * string so install-skill works offline and the installed file always matches this version. `port` is
 * the one `notify` uses at install time (NOTIFY_PORT, else config.json, else 47821): an agent's shell
 * seldom has NOTIFY_PORT, so a broker moved to another port is still found.
 */
export const skillMd = (port: number): string => `---
name: notify
description: Ask the user for attention through the local Notify broker when you need an answer or permission, are blocked, hit a failure, or finish long work; update and resolve by key.
---

# Notify: ask your user for attention

Notify is a broker on this machine. It shows the user a desktop notification and keeps a list of
everything that waits for them, so they do not have to watch your terminal. Reach it with the
\`notify\` command or its HTTP API on \`http://127.0.0.1:${port}\` (or the port in \`NOTIFY_PORT\`).

## When to ask for attention

Notify only when a person has to act, or would want to know now:

| Situation | \`--type\` | ARC \`kind\` | Priority to use |
|---|---|---|---|
| You need an answer or a decision to continue | \`input_required\` | \`question\` | high |
| You need permission for an action (deploy, delete, spend) | \`permission_required\` | \`permission\` | high |
| You are blocked (missing credentials, service down, conflict) | \`blocked\` | \`blocked\` | high |
| Something failed and you stopped or gave up | \`error\` | \`failure\` | high |
| Long work finished and the user may be away | \`completed\` | \`completion\` | normal |
| Worth knowing now, nothing to do | \`info\` | \`information\` | normal |

With the event API the \`kind\` sets that priority by itself (\`request.priority\` overrides it). With
\`notify send\` the \`--type\` does not: a notification gets \`normal\` unless you pass \`--priority\`
(or the user's config.json gives that type a default priority), so pass \`--priority high\` for the
first four rows.

Do not notify for routine progress, for each step or tool call, or when the user is clearly
watching the conversation. Use \`critical\` priority only when waiting causes real harm.

## Keys: one condition, one notification

Give every condition a stable key, such as \`<project>:<condition>\` (\`api:approve-migration\`,
\`api:tests-failing\`). While a notification with that key is active, sending again with the same
key updates it in place instead of adding a second one. When the condition is over (the question
was answered, the tests pass again), resolve it so it leaves the user's list. Resolving and then
sending the same key again starts a new notification, so do not resend a create for a condition
that is already over. Never reuse one key for two conditions.

## With the notify command

\`\`\`sh
notify send --title "Approve migration 0042?" \\
  --message "It drops column users.legacy_id. Answer in the terminal." \\
  --type permission-required --priority high --key api:approve-migration --project api \\
  --agent claude-code
\`\`\`

- \`--title\` (1-200 characters) and \`--message\` (1-4000) are required; \`notify "Title" "Message"\`
  is the short form.
- \`--agent\` names you (\`claude-code\`, \`codex\`); \`NOTIFY_AGENT\` sets it for every call.
- The command prints the notification as JSON; keep its \`id\`.
- \`notify resolve <id>\` when the condition is over; \`notify dismiss <id>\` when it needs nothing.
- \`notify list --unresolved\` shows what still waits for the user.
- Exit codes: 0 ok; 1 failure (for example the broker is not running); 2 the token was refused;
  3 no notification with that id.

## With the event API (ARC 0.1)

\`POST /v1/events\` takes one Attention Request Contract event and works by key, so you can update
and resolve a condition without remembering ids. Authenticate with the broker's token.

\`\`\`sh
TOKEN="\${NOTIFY_TOKEN:-$(notify token)}"
curl -sS "http://127.0.0.1:\${NOTIFY_PORT:-${port}}/v1/events" \\
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -d '{
    "arc_version": "0.1",
    "event_id": "'"$(node -e 'console.log(crypto.randomUUID())')"'",
    "event_type": "request.created",
    "occurred_at": "'"$(date -u +%Y-%m-%dT%H:%M:%SZ)"'",
    "sender": { "id": "claude-code", "name": "Claude Code" },
    "context": { "project": "api", "cwd": '"$(node -p 'JSON.stringify(process.cwd())')"' },
    "request": {
      "key": "api:tests-failing",
      "kind": "failure",
      "title": "Tests failing on main",
      "message": "3 tests in auth.spec.ts fail after the session refactor.",
      "priority": "high"
    }
  }'
\`\`\`

- Every event needs a new \`event_id\`; never reuse one for a different event.
- Text from the shell goes into the JSON escaped: \`node -p 'JSON.stringify(process.cwd())'\` prints the
  working directory as a JSON string, quotes included. Never paste \`$PWD\` or another variable
  between JSON quotes: a quote or backslash in it breaks the event (400).
- Retrying a \`request.created\` without a key is safe: the same \`sender.id\` and \`event_id\` return
  the original notification (200), even after it was resolved.
- A \`request.created\` with a key is matched by its key, not its \`event_id\`: while that condition
  is active it is refreshed in place (200); after it was resolved or dismissed the same create
  starts a new notification (201). A late retry after the condition ended brings it back, so only
  retry a keyed create while the condition still holds.
- \`request.updated\` replaces the active condition with that key (it needs \`key\`, \`kind\` and
  \`message\`).
- \`request.resolved\` ends it: the \`request\` object holds only the key,
  \`"request": { "key": "api:tests-failing" }\`.
- \`kind\` is one of \`information\`, \`question\`, \`permission\`, \`blocked\`, \`failure\`, \`completion\`.
- Answers: 201 a new notification; 200 refreshed, updated, resolved, or an unkeyed retry; 404 no
  active condition with that key (update and resolve never create one); 400 invalid event; 401
  wrong or missing token.
- Unknown fields are rejected with 400. Besides those shown, the event may carry
  \`sender.version\`, \`sender.instance_id\`, \`context.session_id\`, \`context.correlation_id\`,
  \`context.pid\` (an integer), and a top-level \`extensions\` object whose keys start with \`x-\`;
  \`"extensions": { "x-notify": { "notification_type": "<type>" } }\` picks the notification type
  instead of the one the kind implies. The schema is \`schemas/arc-0.1.schema.json\` in the Notify
  package.

## Never put in a notification

- Tokens, API keys, passwords, private keys, cookies or any other secret or credential, the Notify
  token included.
- Full prompts, conversation text, tool output, logs, diffs or file contents. Summarize in one or
  two sentences and say where the details are ("see the terminal", a file path).
- Personal data the user would not want on their screen.

## If \`notify\` is not on the PATH

When the shell answers \`notify: command not found\` (exit 127), the Notify client is not installed
for your shell. Tell the user once (running \`npm link\` in the Notify checkout puts \`notify\` on the
PATH); do not install anything yourself. The event API above works without it; take the token from
\`NOTIFY_TOKEN\`, else from \`authToken\` in Notify's config.json: on Linux
\`$XDG_CONFIG_HOME/notify/config.json\` (by default \`~/.config/notify/config.json\`), on macOS
\`~/Library/Application Support/notify/config.json\`, on Windows \`%APPDATA%\\notify\\config.json\`.
On Linux:

\`\`\`sh
TOKEN="\${NOTIFY_TOKEN:-$(node -p 'const x = process.env.XDG_CONFIG_HOME; require((x?.startsWith("/") ? x : require("node:os").homedir() + "/.config") + "/notify/config.json").authToken')}"
\`\`\`

## If Notify is not running

When \`notify\` exits 1 with "Could not reach Notify", carry on with your work and tell the user in
your reply instead; do not retry in a loop.
`;
