import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateToken } from './config-file.js';
import { MalformedConfigError } from './malformed-config-error.js';
import { normalizeConfig, TOKEN_RULE_MESSAGE } from './settings.js';

const token = () => 'generated';

describe('normalizeConfig', () => {
  it('refuses wrong JSON types for known fields, naming the field', () => {
    for (const [raw, message] of [
      [[], 'the top level must be a JSON object'],
      [{ port: '47821' }, '"port" must be a number'],
      [{ pauseNotifications: 'yes' }, '"pauseNotifications" must be a boolean'],
      [{ authToken: 42 }, '"authToken" must be a string'],
      [{ types: [] }, '"types" must be an object'],
    ] as const) {
      assert.throws(() => normalizeConfig(raw, token), new MalformedConfigError(message));
    }
  });

  it('resets a port outside 1-65535 with a warning', () => {
    const { settings, warnings } = normalizeConfig({ port: 70000 }, token);
    assert.equal(settings.port, 47821);
    assert.deepEqual(warnings, ['port 70000 is out of range (1-65535); using 47821']);
  });

  it('reads type definitions, skipping bad entries with a warning', () => {
    const { settings, warnings } = normalizeConfig(
      {
        types: {
          deploy: { defaultPriority: 'High', color: '#f00' },
          muted: { enabled: false },
          'Bad-Id': {},
          odd: 'x',
          weird: { defaultPriority: 'urgent' },
        },
      },
      token,
    );
    assert.deepEqual(settings.types, {
      deploy: { enabled: true, defaultPriority: 'high', color: '#f00' },
      muted: { enabled: false },
      weird: { enabled: true },
    });
    assert.equal(warnings.length, 3);
  });

  const REFUSED_TOKENS: [name: string, token: string][] = [
    ['15 characters', 'abcdefghij12345'],
    ['a space', 'abcdefgh ijklmnop'],
    ['a leading space', ' abcdefghijklmnop'],
    ['a trailing space', 'abcdefghijklmnop '],
    ['a tab', 'abcdefgh\tijklmnop'],
    ['a line feed', 'abcdefgh\nijklmnop'],
    ['a control character', 'abcdefgh\u0007ijklmnop'],
    ['DEL', 'abcdefgh\u007fijklmnop'],
    ['a non-ASCII letter', 'abcdefghijklmnopé'],
    ['a non-breaking space', 'abcdefgh\u00a0ijklmnop'],
  ];
  for (const [name, authToken] of REFUSED_TOKENS) {
    it(`refuses an authToken with ${name}, naming the rule`, () => {
      assert.throws(
        () => normalizeConfig({ authToken }, token),
        new MalformedConfigError(TOKEN_RULE_MESSAGE),
      );
    });
  }

  it('accepts an authToken of 16 printable ASCII characters and every generated one', () => {
    assert.equal(
      normalizeConfig({ authToken: `a!#$%&'()*+,-./:` }, token).settings.authToken,
      `a!#$%&'()*+,-./:`,
    );
    const generated = normalizeConfig({}, generateToken).settings.authToken;
    assert.equal(normalizeConfig({ authToken: generated }, token).settings.authToken, generated);
  });
});

describe('soundsByPriority', () => {
  it('defaults to none, chime, ping, alert and writes the default into the file', () => {
    const { settings, document } = normalizeConfig({}, token);
    const expected = { low: 'none', normal: 'chime', high: 'ping', critical: 'alert' };
    assert.deepEqual(settings.soundsByPriority, expected);
    assert.deepEqual(document['soundsByPriority'], expected);
  });

  it('keeps valid entries, fills missing priorities and skips bad ones with a warning', () => {
    const { settings, warnings } = normalizeConfig(
      { soundsByPriority: { low: 'knock', high: '../x', urgent: 'ping' } },
      token,
    );
    assert.deepEqual(settings.soundsByPriority, {
      low: 'knock',
      normal: 'chime',
      high: 'ping',
      critical: 'alert',
    });
    assert.deepEqual(warnings, [
      'soundsByPriority.high must be a sound name (chime, ping, alert, knock, an imported sound, or none); using ping',
      'soundsByPriority: "urgent" is not a priority (low, normal, high, critical); ignored',
    ]);
  });

  it('refuses a value that is not an object, naming the field', () => {
    assert.throws(
      () => normalizeConfig({ soundsByPriority: 'chime' }, token),
      new MalformedConfigError('"soundsByPriority" must be an object'),
    );
  });
});
