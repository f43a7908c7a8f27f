#!/usr/bin/env node
import { VERSION } from '../../version.js';

const USAGE = `notifyctl ${VERSION}: administration of Notify beyond the notify client.

Usage: notifyctl <command> [options]

Commands arrive with later releases (settings, types, sounds, providers, routes, outbox, service).
  --help, -h     this text
  --version      print the version`;

const [first] = process.argv.slice(2);
if (first === undefined || first === '--help' || first === '-h') {
  console.log(USAGE);
} else if (first === '--version') {
  console.log(`notifyctl ${VERSION}`);
} else {
  console.error(`notifyctl: unknown command '${first}'. Run 'notifyctl --help'.`);
  process.exitCode = 1;
}
