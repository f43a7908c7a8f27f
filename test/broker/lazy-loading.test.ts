import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { arcEvent } from '../arc/fixtures.js';
import { createTempHome, startBroker } from '../support/broker-process.js';

const RECORDER = new URL('../support/module-recorder.js', import.meta.url).href;

/** What an idle broker leaves unloaded until it is used (issue 17: notifyd runs all day). */
const ON_FIRST_USE = [
  '/node_modules/ajv/',
  '/node_modules/undici/',
  '/node_modules/nodemailer/',
  '/node_modules/mqtt/',
  '/node_modules/@jellybrick/dbus-next/',
  '/src/domain/arc/envelope-validator.js',
  '/src/presentation/tray/tray.js',
];

describe('what notifyd loads', () => {
  it("leaves the ARC validator, the providers' libraries and D-Bus unloaded until they are used", async () => {
    // A home without DBUS_SESSION_BUS_ADDRESS: no session bus, as on a server or in a service.
    const home = createTempHome();
    const modulesFile = join(home.home, 'modules.txt');
    const broker = await startBroker({
      home,
      env: { NODE_OPTIONS: `--import=${RECORDER}`, NOTIFY_TEST_MODULES_FILE: modulesFile },
    });
    const loaded = (part: string) =>
      readFileSync(modulesFile, 'utf8')
        .split('\n')
        .some((url) => url.includes(part));
    try {
      assert.equal(loaded('/src/broker/broker.js'), true, 'the recorder sees the broker');
      assert.equal(
        (await broker.request('POST', '/v1/notifications', { title: 't', message: 'm' })).status,
        201,
      );
      assert.equal((await broker.request('GET', '/v1/notifications')).status, 200);
      assert.deepEqual(ON_FIRST_USE.filter(loaded), []);
      assert.equal((await broker.request('POST', '/v1/events', arcEvent())).status, 201);
      assert.equal(
        loaded('/src/domain/arc/envelope-validator.js'),
        true,
        'the first event compiles the validator',
      );
    } finally {
      await broker.stop();
      home.cleanup();
    }
  });
});
