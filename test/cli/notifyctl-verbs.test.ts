import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { createTempHome, useBroker } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

const GROUPS = ['settings', 'types', 'sounds', 'providers', 'routes', 'outbox'];
const DOC = readFileSync(new URL('../../../docs/notifyctl.md', import.meta.url), 'utf8');

/** docs/notifyctl.md's verb table: verb → the groups its "in" column names. */
function documentedVerbs(): Map<string, Set<string>> {
  const verbs = new Map<string, Set<string>>();
  for (const line of DOC.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length !== 5 || !cells[1]!.startsWith('`')) continue;
    const groups = new Set(cells[3]!.match(/[a-z]+/g)!.filter((word) => GROUPS.includes(word)));
    for (const verb of cells[1]!.matchAll(/`([a-z]+)`/g)) verbs.set(verb[1]!, groups);
  }
  return verbs;
}

describe('notifyctl: one verb for one meaning across the command groups', () => {
  const home = createTempHome();
  after(() => home.cleanup());

  it("every group's --help uses a documented verb exactly in the groups docs/notifyctl.md names", async () => {
    const documented = documentedVerbs();
    assert.ok(documented.has('show') && documented.has('list'), 'the verb table is in docs/notifyctl.md');
    const used = new Map<string, Set<string>>();
    for (const group of GROUPS) {
      const result = await runNotifyctl([group, '--help'], { env: home.env });
      assert.equal(result.code, 0, result.stderr);
      for (const match of result.stdout.matchAll(new RegExp(`^ {2}notifyctl ${group} ([a-z]+)`, 'gm'))) {
        const verbs = used.get(match[1]!) ?? new Set<string>();
        used.set(match[1]!, verbs.add(group));
      }
    }
    assert.equal(used.has('get'), false, "no group offers 'get' next to the others' 'show'");
    for (const [verb, groups] of documented) {
      if (['install', 'uninstall', 'status'].includes(verb)) continue;
      assert.deepEqual([...(used.get(verb) ?? [])].sort(), [...groups].sort(), `groups using '${verb}'`);
    }
  });

  describe('with a broker', () => {
    const broker = useBroker();

    it("'settings get' still works as the alias of 'settings show', with the same output", async () => {
      const show = await runNotifyctl(['settings', 'show'], { env: broker.home.env });
      const get = await runNotifyctl(['settings', 'get'], { env: broker.home.env });
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, /^pauseNotifications {20}false\n/);
      assert.deepEqual(get, show);
    });
  });
});
