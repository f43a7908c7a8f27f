import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from './fields.js';
import { applySettingsPatch, presentationSettingsOf } from './presentation-settings.js';

function refusal(document: JsonObject, body: unknown): string {
  try {
    applySettingsPatch(document, body);
  } catch (error) {
    assert.equal((error as Error).name, 'InvalidRequestError');
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(body)}`);
}

describe('PATCH /v1/settings as a JSON merge patch on config.json', () => {
  it('sets the fields sent, keeps the others, and removes a field sent as null (its default returns)', () => {
    const document: JsonObject = { authToken: 't', port: 1, doNotDisturb: true, maxVisibleToasts: 3 };
    applySettingsPatch(document, { soundsEnabled: false, doNotDisturb: null, maxVisibleToasts: 5 });
    assert.deepEqual(document, { authToken: 't', port: 1, soundsEnabled: false, maxVisibleToasts: 5 });
  });

  it('merges soundsByPriority per priority, null removing one', () => {
    const document: JsonObject = { soundsByPriority: { low: 'none', normal: 'chime', high: 'ping' } };
    applySettingsPatch(document, { soundsByPriority: { high: 'knock', low: null, critical: 'alert' } });
    assert.deepEqual(document, { soundsByPriority: { normal: 'chime', high: 'knock', critical: 'alert' } });
  });

  it('sets soundsByPriority whole when the file has none, and replaces it when the patch is not an object', () => {
    const fresh: JsonObject = {};
    applySettingsPatch(fresh, { soundsByPriority: { high: 'knock' } });
    assert.deepEqual(fresh, { soundsByPriority: { high: 'knock' } });
    const broken: JsonObject = { soundsByPriority: 'chime' };
    applySettingsPatch(broken, { soundsByPriority: { low: 'ping' } });
    assert.deepEqual(broken, { soundsByPriority: { low: 'ping' } });
    const replaced: JsonObject = { soundsByPriority: { low: 'ping' } };
    applySettingsPatch(replaced, { soundsByPriority: 'x' });
    assert.deepEqual(replaced, { soundsByPriority: 'x' });
  });

  it('refuses the token and the port, changing nothing', () => {
    for (const field of ['authToken', 'port']) {
      const document: JsonObject = { doNotDisturb: false };
      assert.equal(
        refusal(document, { doNotDisturb: true, [field]: 1 }),
        `"${field}" cannot be read or changed through the API; edit config.json to change it`,
      );
      assert.deepEqual(document, { doNotDisturb: false });
    }
  });

  it('refuses an unknown field, changing nothing, and a body that is not an object', () => {
    const document: JsonObject = {};
    assert.equal(
      refusal(document, { pauseNotifications: true, volume: 3 }),
      'unknown field "volume"; allowed fields are pauseNotifications, soundsEnabled, doNotDisturb, playCriticalSoundsDuringDoNotDisturb, maxVisibleToasts, soundsByPriority, quietHours, quietWhileFocused, focusGraceSeconds',
    );
    assert.deepEqual(document, {});
    assert.equal(refusal(document, [true]), 'request body must be a JSON object');
  });

  it('shows exactly the presentation settings, as a copy', () => {
    const settings = {
      pauseNotifications: true,
      soundsEnabled: false,
      doNotDisturb: true,
      playCriticalSoundsDuringDoNotDisturb: false,
      maxVisibleToasts: 4,
      soundsByPriority: { low: 'none', normal: 'chime', high: 'ping', critical: 'alert' },
      quietWhileFocused: false,
      focusGraceSeconds: 30,
      authToken: 'secret',
      port: 47821,
    } as Parameters<typeof presentationSettingsOf>[0];
    const shown = presentationSettingsOf(settings);
    assert.deepEqual(shown, {
      pauseNotifications: true,
      soundsEnabled: false,
      doNotDisturb: true,
      playCriticalSoundsDuringDoNotDisturb: false,
      maxVisibleToasts: 4,
      soundsByPriority: { low: 'none', normal: 'chime', high: 'ping', critical: 'alert' },
      quietHours: null,
      quietWhileFocused: false,
      focusGraceSeconds: 30,
    });
    assert.notEqual(shown.soundsByPriority, settings.soundsByPriority);
  });
});
