import { fileURLToPath } from 'node:url';
import type { HookTool } from '../../../domain/hooks/decision.js';

/** The bundled hook adapter of this checkout (scripts/bundle-client.mjs), beside dist/notify.cjs. */
export const HOOK_BUNDLE = fileURLToPath(new URL('../../../../notify-hook.cjs', import.meta.url));

/**
 * The command written into a tool's settings: absolute paths to this node and this checkout's
 * bundle, so it works whatever PATH the agent runs hooks with. Tools run it through a shell, so a path
 * with anything but plain characters is single-quoted.
 */
export function hookCommandLine(
  tool: HookTool,
  node: string = process.execPath,
  bundle: string = HOOK_BUNDLE,
): string {
  return `${shellQuote(node)} ${shellQuote(bundle)} ${tool}`;
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The node and bundle paths of a hook command line written by any version (the inverse of
 * `hookCommandLine`'s quoting): its first two shell words.
 */
export function commandPaths(command: string): string[] {
  const words: string[] = [];
  const word = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (const match of command.matchAll(word)) {
    words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!);
    if (words.length === 2) break;
  }
  return words;
}
