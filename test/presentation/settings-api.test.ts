import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createTempHome, readConfigFile, replaceConfigFile, useBroker } from '../support/broker-process.js';

const home = createTempHome();

describe('GET and PATCH /v1/settings', () => {
  const broker = useBroker({
    home,
    config: { futureSetting: { nested: [1, 2] }, types: { deploy: { color: '#f00' } } },
  });

  it('shows the presentation settings and never the token or the port', async () => {
    const response = await broker.request('GET', '/v1/settings');
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      pauseNotifications: false,
      soundsEnabled: true,
      doNotDisturb: false,
      playCriticalSoundsDuringDoNotDisturb: true,
      maxVisibleToasts: 5,
      soundsByPriority: { low: 'none', normal: 'chime', high: 'ping', critical: 'alert' },
      quietHours: null,
      quietWhileFocused: true,
      focusGraceSeconds: 15,
    });
  });

  it('answers 401 without the token', async () => {
    const response = await fetch(`${broker.baseUrl}/v1/settings`);
    assert.equal(response.status, 401);
  });

  it('writes a change to config.json, keeps unknown fields, and GET shows it at once', async () => {
    const patch = await broker.request('PATCH', '/v1/settings', {
      doNotDisturb: true,
      maxVisibleToasts: 3,
      soundsByPriority: { low: 'knock' },
    });
    assert.equal(patch.status, 200);
    const answered = (await patch.json()) as Record<string, unknown>;
    assert.equal(answered['doNotDisturb'], true);
    assert.deepEqual(answered['soundsByPriority'], {
      low: 'knock',
      normal: 'chime',
      high: 'ping',
      critical: 'alert',
    });
    assert.deepEqual(await (await broker.request('GET', '/v1/settings')).json(), answered);
    const file = readConfigFile(home);
    assert.equal(file['doNotDisturb'], true);
    assert.equal(file['maxVisibleToasts'], 3);
    assert.deepEqual(file['futureSetting'], { nested: [1, 2] });
    assert.deepEqual(file['types'], { deploy: { color: '#f00' } });
    assert.equal(file['authToken'], broker.token);
  });

  it('restores a default when a field is patched to null', async () => {
    await broker.request('PATCH', '/v1/settings', {
      soundsEnabled: false,
      soundsByPriority: { high: 'knock' },
    });
    const response = await broker.request('PATCH', '/v1/settings', {
      soundsEnabled: null,
      soundsByPriority: { high: null },
    });
    const body = (await response.json()) as {
      soundsEnabled: boolean;
      soundsByPriority: Record<string, string>;
    };
    assert.equal(body.soundsEnabled, true);
    assert.equal(body.soundsByPriority['high'], 'ping');
  });

  const REFUSALS: [what: string, body: unknown, error: string][] = [
    [
      'the token',
      { authToken: 'mine' },
      '"authToken" cannot be read or changed through the API; edit config.json to change it',
    ],
    [
      'the port',
      { port: 1234 },
      '"port" cannot be read or changed through the API; edit config.json to change it',
    ],
    [
      'an unknown field',
      { doNotDisturbb: true },
      'unknown field "doNotDisturbb"; allowed fields are pauseNotifications, soundsEnabled, doNotDisturb, playCriticalSoundsDuringDoNotDisturb, maxVisibleToasts, soundsByPriority, quietHours, quietWhileFocused, focusGraceSeconds',
    ],
    ['a wrong type', { pauseNotifications: 'yes' }, '"pauseNotifications" must be a boolean'],
    ['an out-of-range value', { maxVisibleToasts: 50 }, 'maxVisibleToasts 50 is out of range (1-20)'],
    [
      'a wait while looking past an hour',
      { focusGraceSeconds: 3601 },
      'focusGraceSeconds 3601 is out of range (0-3600)',
    ],
    [
      'a fractional wait while looking',
      { focusGraceSeconds: 2.5 },
      'focusGraceSeconds 2.5 is out of range (0-3600)',
    ],
    [
      'quiet while looking that is not a boolean',
      { quietWhileFocused: 'no' },
      '"quietWhileFocused" must be a boolean',
    ],
    ['a body that is not an object', [1], 'request body must be a JSON object'],
    [
      'an unknown priority',
      { soundsByPriority: { urgent: 'ping' } },
      'soundsByPriority: "urgent" is not a priority (low, normal, high, critical)',
    ],
    [
      'a sound that does not exist',
      { soundsByPriority: { normal: 'trumpet' } },
      'unknown sound "trumpet" for soundsByPriority.normal; use chime, ping, alert, knock, none or an imported sound (GET /v1/sounds lists them)',
    ],
  ];
  for (const [what, body, error] of REFUSALS) {
    it(`refuses ${what} with 400 and leaves config.json as it was`, async () => {
      const before = readFileSync(home.configFile, 'utf8');
      const response = await broker.request('PATCH', '/v1/settings', body);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error });
      assert.equal(readFileSync(home.configFile, 'utf8'), before);
    });
  }
  it('never overwrites a config.json broken by hand: 409 naming the problem, the file left as it is', async () => {
    const good = readFileSync(home.configFile, 'utf8');
    const broken = good.replace('"doNotDisturb"', 'doNotDisturb');
    replaceConfigFile(home, broken);
    try {
      const response = await broker.request('PATCH', '/v1/settings', { pauseNotifications: true });
      assert.equal(response.status, 409);
      const { error } = (await response.json()) as { error: string };
      assert.match(error, /config\.json is not valid JSON \(.+\); fix config\.json by hand/);
      assert.equal(readFileSync(home.configFile, 'utf8'), broken);
    } finally {
      replaceConfigFile(home, good);
    }
  });

  it('keeps the running token in the file when a change is made after someone removed it', async () => {
    const withoutToken = readConfigFile(home);
    delete withoutToken['authToken'];
    replaceConfigFile(home, withoutToken);
    const response = await broker.request('PATCH', '/v1/settings', { soundsEnabled: false });
    assert.equal(response.status, 200);
    assert.equal(readConfigFile(home)['authToken'], broker.token);
    assert.equal((await broker.request('GET', '/v1/settings')).status, 200);
  });
});

describe('/v1/types', () => {
  const broker = useBroker({ config: { types: { legacy: { defaultPriority: 'low', color: 'blue' } } } });

  it('lists the built-in types first, then the custom ones with their definitions', async () => {
    const response = await broker.request('GET', '/v1/types');
    assert.equal(response.status, 200);
    const list = (await response.json()) as { id: string; builtin: boolean }[];
    assert.deepEqual(
      list.map((entry) => `${entry.id}:${entry.builtin}`),
      [
        'info:true',
        'success:true',
        'warning:true',
        'error:true',
        'input_required:true',
        'permission_required:true',
        'completed:true',
        'blocked:true',
        'legacy:false',
      ],
    );
    assert.deepEqual(list[8], {
      id: 'legacy',
      builtin: false,
      enabled: true,
      defaultPriority: 'low',
      color: 'blue',
    });
  });

  it('creates (201) and replaces (200) a type, and the next create uses it at once', async () => {
    const definition = {
      defaultPriority: 'Critical',
      lifetimeSeconds: 0,
      icon: 'dialog-warning',
      sound: 'knock',
    };
    const created = await broker.request('PUT', '/v1/types/deploy', definition);
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), {
      id: 'deploy',
      builtin: false,
      enabled: true,
      defaultPriority: 'critical',
      lifetimeSeconds: 0,
      icon: 'dialog-warning',
      sound: 'knock',
    });
    const notification = await broker.request('POST', '/v1/notifications', {
      title: 'T',
      message: 'M',
      type: 'deploy',
    });
    assert.equal(((await notification.json()) as { priority: string }).priority, 'critical');

    const replaced = await broker.request('PUT', '/v1/types/deploy', { enabled: false });
    assert.equal(replaced.status, 200);
    assert.deepEqual(await replaced.json(), { id: 'deploy', builtin: false, enabled: false });
    assert.deepEqual((readConfigFile(broker.home)['types'] as Record<string, unknown>)['deploy'], {
      enabled: false,
    });
  });

  it('gives a built-in type a definition of its own', async () => {
    const response = await broker.request('PUT', '/v1/types/error', { sound: 'alert', lifetimeSeconds: 20 });
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), {
      id: 'error',
      builtin: true,
      enabled: true,
      sound: 'alert',
      lifetimeSeconds: 20,
    });
  });

  it('removes a type (200 with what was removed), then answers 404', async () => {
    await broker.request('PUT', '/v1/types/temporary', { icon: 'emblem-ok' });
    const removed = await broker.request('DELETE', '/v1/types/temporary');
    assert.equal(removed.status, 200);
    assert.deepEqual(await removed.json(), {
      id: 'temporary',
      builtin: false,
      enabled: true,
      icon: 'emblem-ok',
    });
    assert.equal(Object.hasOwn(readConfigFile(broker.home)['types'] as object, 'temporary'), false);
    const again = await broker.request('DELETE', '/v1/types/temporary');
    assert.equal(again.status, 404);
    assert.deepEqual(await again.json(), { error: 'type "temporary" not found' });
  });

  const REFUSALS: [what: string, id: string, body: unknown, error: string][] = [
    [
      'an id that breaks the grammar',
      'Deploy-X',
      {},
      'type id "Deploy-X" is not valid; use 1-64 lower-case letters, digits and underscores, starting with a letter',
    ],
    [
      'an unknown field',
      'deploy',
      { colour: 'red' },
      'unknown field "colour"; allowed fields are enabled, defaultPriority, lifetimeSeconds, icon, sound, needsPerson, resolveAfterMinutes, remindEveryMinutes, remindTimes',
    ],
    [
      'a bad priority',
      'deploy',
      { defaultPriority: 'urgent' },
      'defaultPriority must be low, normal, high, or critical',
    ],
    [
      'a negative lifetime',
      'deploy',
      { lifetimeSeconds: -1 },
      'lifetimeSeconds must be a number from 0 to 86400 (0: the toast stays until acted on)',
    ],
    [
      'an icon path',
      'deploy',
      { icon: '/etc/passwd' },
      'icon must be a freedesktop icon name such as dialog-warning (letters, digits, "-", "_", "." or "+"; at most 128 characters)',
    ],
    [
      'a sound that does not exist',
      'deploy',
      { sound: 'trumpet' },
      'unknown sound "trumpet" for types.deploy.sound; use chime, ping, alert, knock, none or an imported sound (GET /v1/sounds lists them)',
    ],
    ['enabled as a string', 'deploy', { enabled: 'yes' }, 'enabled must be true or false'],
  ];
  for (const [what, id, body, error] of REFUSALS) {
    it(`refuses ${what} with 400 and leaves config.json as it was`, async () => {
      const before = readFileSync(broker.home.configFile, 'utf8');
      const response = await broker.request('PUT', `/v1/types/${id}`, body);
      assert.equal(response.status, 400);
      assert.deepEqual(await response.json(), { error });
      assert.equal(readFileSync(broker.home.configFile, 'utf8'), before);
    });
  }
});
