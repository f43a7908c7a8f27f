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
