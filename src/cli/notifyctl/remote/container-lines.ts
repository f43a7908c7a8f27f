import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookCommandLine } from '../hooks/hook-command-line.js';
import { withOurHooks } from '../hooks/hook-entries.js';
import { HOOK_TARGETS } from '../hooks/targets.js';

/** The folder holding this checkout's client and hook bundles (dist/), mounted read-only in a container. */
const BUNDLES = dirname(fileURLToPath(new URL('../../../../notify.cjs', import.meta.url)));

/** Claude Code's settings with Notify's hooks, running the mounted hook bundle with the container's node. */
function claudeSettings(): string {
  const target = HOOK_TARGETS.claude;
  const command = hookCommandLine('claude', 'node', '/opt/notify/notify-hook.cjs');
  const entry = target.entry(command, { timeoutSeconds: target.defaultPermissionTimeout });
  return JSON.stringify(withOurHooks({}, 'claude', target.events, entry), null, 2);
}

/**
 * What a dev container needs to reach the desk: the socket's folder mounted at /run/notify, the
 * bundles at /opt/notify, the token through a file (never an environment line `docker inspect`
 * shows), and a post-create command that writes the client's config and Claude Code's hooks.
 */
export function containerLines(name: string, socket: string): string {
  const folder = dirname(socket);
  const tokenFile = `~/.config/notify/${name}.token`;
  const postCreate =
    'mkdir -p ~/.config/notify ~/.claude && ' +
    'printf \'{"authToken":"%s","socket":"/run/notify/notify.sock"}\\n\' "$(cat /run/secrets/notify-token)" > ~/.config/notify/config.json && ' +
    'chmod 600 ~/.config/notify/config.json && ' +
    '{ [ -e ~/.claude/settings.json ] || cp .devcontainer/notify-claude-settings.json ~/.claude/settings.json; }';
  const devcontainer = {
    mounts: [
      `source=${folder},target=/run/notify,type=bind`,
      `source=${BUNDLES},target=/opt/notify,type=bind,readonly`,
      `source=\${localEnv:HOME}/.config/notify/${name}.token,target=/run/secrets/notify-token,type=bind,readonly`,
    ],
    containerEnv: { NOTIFY_SOCKET: '/run/notify/notify.sock' },
    updateRemoteUserUID: true,
    postCreateCommand: postCreate,
  };
  return [
    '# 1. A token for the container, in a file only you can read (its last line is the token):',
    `umask 077; notifyctl tokens create ${name} | tail -n 1 > ${tokenFile}`,
    '',
    '# 2. .devcontainer/devcontainer.json (merge into yours; the container needs Node.js 22 or later):',
    JSON.stringify(devcontainer, null, 2),
    '',
    '# 3. .devcontainer/notify-claude-settings.json (Claude Code hooks the post-create command installs):',
    claudeSettings(),
    '',
    '# Or with docker run (the container user must have your uid: the client checks the socket is its own):',
    `docker run --user "$(id -u):$(id -g)" -v ${folder}:/run/notify -v ${BUNDLES}:/opt/notify:ro \\`,
    `  -v ${tokenFile}:/run/secrets/notify-token:ro -e NOTIFY_SOCKET=/run/notify/notify.sock IMAGE \\`,
    `  sh -c 'NOTIFY_TOKEN="$(cat /run/secrets/notify-token)" node /opt/notify/notify.cjs "hello from the container"'`,
  ].join('\n');
}
