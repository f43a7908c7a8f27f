import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isOurCommand } from './hook-entries.js';
import { readCodexHookStates } from './codex-trust-state.js';

/** Notify's entries in a Codex hooks.json that Codex will not run, by why. */
export interface CodexTrust {
  /** Entries never trusted: Codex asks about them at start-up, `codex exec` skips them. */
  untrusted: string[];
  /** Entries trusted once, then changed (another checkout, Node or answer wait): the same. */
  modified: string[];
  /** Entries switched off in /hooks. */
  disabled: string[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Which of Notify's entries in `hooksFile` Codex trusts, from the hook states in its `configFile`
 * (codex-trust-state.ts). Codex keys an entry by the hooks file, the event in snake case and the
 * entry's place (`<file>:permission_request:0:0`) and trusts it while the hash of what it runs is
 * the one recorded when the person trusted it (Codex 0.171.0, hooks/src/engine/discovery.rs): so a
 * reinstall that changes an entry needs the review again. A missing config.toml trusts nothing.
 */
export function codexTrust(hooksFile: string, configFile: string): CodexTrust {
  const trust: CodexTrust = { untrusted: [], modified: [], disabled: [] };
  const settings: unknown = JSON.parse(readFileSync(hooksFile, 'utf8'));
  const hooks = isObject(settings) && isObject(settings['hooks']) ? settings['hooks'] : {};
  const states = readCodexHookStates(readIfThere(configFile));
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, groupIndex) => {
      if (!isObject(group) || !Array.isArray(group['hooks'])) return;
      group['hooks'].forEach((handler: unknown, handlerIndex) => {
        if (!isObject(handler) || !isOurCommand(handler['command'], 'codex')) return;
        const state = states.get(`${hooksFile}:${snakeCase(event)}:${groupIndex}:${handlerIndex}`);
        if (state?.enabled === false) trust.disabled.push(event);
        else if (state?.trustedHash === undefined) trust.untrusted.push(event);
        else if (state.trustedHash !== codexHookHash(event, group, handler)) trust.modified.push(event);
      });
    });
  }
  return trust;
}

/** What `hooks status`, `doctor` and `hooks install` say when Codex would not run some entries. */
export function describeCodexTrust(trust: CodexTrust): string | undefined {
  const parts = [
    trust.untrusted.length > 0 && `not trusted yet: ${trust.untrusted.join(', ')}`,
    trust.modified.length > 0 && `changed since you trusted them: ${trust.modified.join(', ')}`,
    trust.disabled.length > 0 && `turned off in /hooks: ${trust.disabled.join(', ')}`,
  ].filter((part): part is string => typeof part === 'string');
  if (parts.length === 0) return undefined;
  const fix =
    trust.untrusted.length + trust.modified.length > 0
      ? 'start codex and choose "Trust all and continue" at "Hooks need review" (or trust them in /hooks)'
      : 'turn them on again in /hooks';
  return `Codex skips them (${parts.join('; ')}); ${fix}`;
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** `PermissionRequest` → `permission_request`, as Codex labels its events in keys and hashes. */
function snakeCase(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Codex's trust hash of one command entry: SHA-256 of the compact JSON, keys sorted, of the event's
 * label with the entry's group holding only this entry as Codex normalizes it (a timeout of 600 s
 * when none is given, at least 1; `async` false unless set; fields that are absent left out).
 */
export function codexHookHash(event: string, group: Json, handler: Json): string {
  const timeout = typeof handler['timeout'] === 'number' ? Math.max(1, handler['timeout']) : 600;
  const normalized: Json = {
    type: 'command',
    command: handler['command'],
    timeout,
    async: handler['async'] === true,
  };
  if (typeof handler['statusMessage'] === 'string') normalized['statusMessage'] = handler['statusMessage'];
  const identity: Json = { event_name: snakeCase(event), hooks: [normalized] };
  if (typeof group['matcher'] === 'string') identity['matcher'] = group['matcher'];
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sorted(identity)))
    .digest('hex')}`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}
