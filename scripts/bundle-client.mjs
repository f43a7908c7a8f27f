// Bundles the `notify` client into one file after tsc: Node then reads one module instead of ~20 at
// every start, which is most of the client's start-up time (the client runs on every agent's hot path).
// CommonJS because Node starts its ESM loader only for ES modules, and that alone costs ~15 ms.
import { build } from 'esbuild';
import { URL } from 'node:url';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  define: { __NOTIFY_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
  // version.ts reads package.json via import.meta only when __NOTIFY_VERSION__ is not defined.
  logOverride: { 'empty-import-meta': 'silent' },
};

// `notify relay` is a bundle of its own beside notify.cjs, loaded only by that command: the other
// commands then never parse its code (a third of the client) at start-up.
const RELAY_BUNDLE = './notify-relay-client.cjs';
const relayApart = {
  name: 'relay-apart',
  setup(builder) {
    builder.onResolve({ filter: /\/relay\/relay-command\.js$/ }, () => ({
      path: RELAY_BUNDLE,
      external: true,
    }));
  },
};
await build({
  ...common,
  entryPoints: ['dist/src/cli/notify/main.js'],
  outfile: 'dist/notify.cjs',
  plugins: [relayApart],
});
await build({
  ...common,
  entryPoints: ['dist/src/cli/notify/relay/relay-command.js'],
  outfile: `dist/${RELAY_BUNDLE.slice(2)}`,
});
// The agents' hook adapter (docs/agents.md) runs on every hook event of every agent session.
await build({
  ...common,
  entryPoints: ['dist/src/cli/notifyctl/hook/main.js'],
  outfile: 'dist/notify-hook.cjs',
});
