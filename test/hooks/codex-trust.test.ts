import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { codexHookHash, codexTrust } from '../../src/cli/notifyctl/hooks/codex-hook-trust.js';
import { readCodexHookStates } from '../../src/cli/notifyctl/hooks/codex-trust-state.js';

// What Codex 0.171.0 wrote, live: Notify's hooks.json as `notifyctl hooks install codex` wrote it, and
// the config.toml after "Trust all and continue" at its "Hooks need review" screen.
const RECORDED = new URL('../../../test/fixtures/hooks/codex-0.171.0-trust/', import.meta.url);
const RECORDED_HOOKS_FILE = '/tmp/cx2/home/.codex/hooks.json';
const hooksJson = readFileSync(new URL('hooks.json', RECORDED), 'utf8');
const configToml = readFileSync(new URL('config.toml', RECORDED), 'utf8');

type Hooks = Record<string, { hooks: Record<string, unknown>[] }[]>;
const EVENTS = Object.keys((JSON.parse(hooksJson) as { hooks: Hooks }).hooks);

const folder = mkdtempSync(join(tmpdir(), 'notify-codex-trust-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** The recorded pair, put into a folder of the test's own (the keys name the hooks file's path). */
function recorded(changeHooks = (text: string) => text, changeConfig = (text: string) => text) {
  const hooksFile = join(folder, 'hooks.json');
  const configFile = join(folder, 'config.toml');
  writeFileSync(hooksFile, changeHooks(hooksJson));
  writeFileSync(configFile, changeConfig(configToml.replaceAll(RECORDED_HOOKS_FILE, hooksFile)));
  return codexTrust(hooksFile, configFile);
}

describe("Codex's hook trust, read as Codex 0.171.0 records it", () => {
  it('computes the hash Codex recorded for every entry it trusted', () => {
    const states = readCodexHookStates(configToml);
    const hooks = (JSON.parse(hooksJson) as { hooks: Hooks }).hooks;
    assert.equal(EVENTS.length, 7);
    for (const event of EVENTS) {
      const group = hooks[event]![0]!;
      const snake = event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
      const state = states.get(`${RECORDED_HOOKS_FILE}:${snake}:0:0`);
      assert.ok(state?.trustedHash, event);
      assert.equal(codexHookHash(event, group, group.hooks[0]!), state.trustedHash, event);
    }
  });

  it('finds every entry trusted after "Trust all and continue"', () => {
    assert.deepEqual(recorded(), { untrusted: [], modified: [], disabled: [] });
  });

  it('finds every entry untrusted when Codex recorded nothing (a fresh install)', () => {
    assert.deepEqual(
      recorded(undefined, (text) => text.replace(/\[hooks\.state[\s\S]*$/, '')),
      { untrusted: EVENTS, modified: [], disabled: [] },
    );
  });

  it('finds an entry a reinstall changed (another answer wait) no longer trusted', () => {
    const changed = recorded((text) => text.replace('--answer-wait=10', '--answer-wait=60'));
    assert.deepEqual(changed, { untrusted: [], modified: ['PermissionRequest'], disabled: [] });
  });

  it('finds an entry switched off in /hooks', () => {
    const off = recorded(undefined, (text) =>
      text.replace(/(\[hooks\.state\."[^"]*:stop:0:0"\]\n)/, '$1enabled = false\n'),
    );
    assert.deepEqual(off, { untrusted: [], modified: [], disabled: ['Stop'] });
  });
});
