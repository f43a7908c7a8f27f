#!/usr/bin/env node
/** `notify-relay`: the relay server of docs/relay.md, in the foreground. */
import '../cli/runtime/require-node-floor.js';
import { runRelay } from './run-relay.js';

process.exitCode = await runRelay({
  argv: process.argv.slice(2),
  env: process.env,
  io: { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
  signals: process,
});
