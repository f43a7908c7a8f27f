import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import * as prettier from 'prettier';
import { DOCTOR_LINES, updateDoctorDocs } from '../../src/cli/notifyctl/doctor-lines.js';
import { startBroker } from '../support/broker-process.js';
import { runNotifyctl } from '../support/notifyctl-cli.js';

const DOC = fileURLToPath(new URL('../../../docs/service.md', import.meta.url));

it("docs/service.md's doctor table is the one the checks' list generates (else run npm run docs:doctor)", async () => {
  const current = readFileSync(DOC, 'utf8');
  const options = { ...(await prettier.resolveConfig(DOC)), filepath: DOC };
  const expected = await prettier.format(updateDoctorDocs(current), options);
  assert.equal(current, expected, 'docs/service.md is stale: run npm run docs:doctor');
  for (const { name } of DOCTOR_LINES) assert.match(current, new RegExp(`^\\| ${name} +\\| `, 'm'));
});

it('every line a real doctor prints, broker up or down, is a documented line, in the documented order', async () => {
  const names = DOCTOR_LINES.map((line) => line.name as string);
  const broker = await startBroker();
  let running = true;
  try {
    const printed = new Set<string>();
    for (const up of [true, false]) {
      if (!up) {
        running = false;
        await broker.stop();
      }
      const result = await runNotifyctl(['doctor'], { env: broker.home.env });
      const lines = result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.slice(6).split(' ')[0]!);
      const order = lines.map((name) => names.indexOf(name));
      assert.ok(
        order.every((index) => index >= 0),
        `undocumented line in:\n${result.stdout}`,
      );
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
        'printed in the documented order',
      );
      lines.forEach((name) => printed.add(name));
    }
    assert.deepEqual(
      [...printed].sort(),
      [...names].sort(),
      'every documented line is printed in one of the runs',
    );
  } finally {
    if (running) await broker.stop();
    broker.home.cleanup();
  }
});
