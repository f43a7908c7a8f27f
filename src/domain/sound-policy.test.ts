import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Priority } from './priority.js';
import { chooseSound } from './sound-choice.js';
import { DEFAULT_SOUNDS_BY_PRIORITY } from './sound-name.js';
import { SoundBurstLimiter, soundAllowed, updateSounds, type SoundSwitches } from './sound-policy.js';

describe('soundAllowed (spec: sounds only when enabled, not paused, and DND lets them through)', () => {
  // enabled, paused, dnd, critical-through-dnd, priority → plays
  const TABLE: [boolean, boolean, boolean, boolean, Priority, boolean][] = [
    [true, false, false, false, 'normal', true],
    [true, false, false, true, 'low', true],
    [true, false, false, true, 'critical', true],
    [false, false, false, true, 'normal', false],
    [false, false, false, true, 'critical', false],
    [false, false, true, true, 'critical', false],
    [true, true, false, true, 'normal', false],
    [true, true, false, true, 'critical', false],
    [true, true, true, true, 'critical', false],
    [true, false, true, true, 'normal', false],
    [true, false, true, true, 'high', false],
    [true, false, true, true, 'critical', true],
    [true, false, true, false, 'critical', false],
    [true, false, true, false, 'low', false],
  ];
  for (const [soundsEnabled, pauseNotifications, doNotDisturb, critical, priority, plays] of TABLE) {
    const switches: SoundSwitches = {
      soundsEnabled,
      pauseNotifications,
      doNotDisturb,
      playCriticalSoundsDuringDoNotDisturb: critical,
    };
    it(`${plays ? 'plays' : 'stays silent'} for ${priority} when ${JSON.stringify(switches)}`, () => {
      assert.equal(soundAllowed(switches, priority), plays);
    });
  }
});

describe('SoundBurstLimiter', () => {
  it('grants one sound for a burst and the next one two seconds after the granted one', () => {
    const limiter = new SoundBurstLimiter();
    const granted = [0, 1, 500, 1999, 2000, 2001, 3999, 4000, 10_000].filter((t) =>
      limiter.tryAcquire(t, 'normal'),
    );
    assert.deepEqual(granted, [0, 2000, 4000, 10_000]);
  });

  it('grants a thousand notifications within one second a single sound', () => {
    const limiter = new SoundBurstLimiter();
    let count = 0;
    for (let i = 0; i < 1000; i++) if (limiter.tryAcquire(5_000 + i, 'critical')) count++;
    assert.equal(count, 1);
  });

  it('never swallows a sound of higher priority than the one that played, only equal or lower ones', () => {
    const limiter = new SoundBurstLimiter();
    const burst: [number, Priority][] = [
      [0, 'normal'],
      [100, 'low'],
      [200, 'normal'],
      [300, 'critical'],
      [400, 'high'],
      [500, 'critical'],
      [2_300, 'low'],
    ];
    const granted = burst.filter(([at, priority]) => limiter.tryAcquire(at, priority));
    assert.deepEqual(granted, [
      [0, 'normal'],
      [300, 'critical'],
      [2_300, 'low'],
    ]);
  });
});

describe('chooseSound', () => {
  const types = {
    deploy: { enabled: true, sound: 'knock' },
    quiet: { enabled: true, sound: 'none' },
    muted: { enabled: false, sound: 'knock' },
    odd: { enabled: true, sound: '../etc/passwd' },
    plain: { enabled: true },
  };
  const TABLE: [type: string, priority: Priority, expected: string | undefined][] = [
    ['deploy', 'low', 'knock'],
    ['quiet', 'critical', undefined],
    ['muted', 'high', 'ping'],
    ['odd', 'normal', 'chime'],
    ['plain', 'critical', 'alert'],
    ['unknown_type', 'low', undefined],
    ['info', 'normal', 'chime'],
  ];
  for (const [type, priority, expected] of TABLE) {
    it(`picks ${expected ?? 'silence'} for type ${type} at ${priority}`, () => {
      assert.equal(chooseSound({ type, priority }, types, DEFAULT_SOUNDS_BY_PRIORITY), expected);
    });
  }
});

describe('updateSounds: an update sounds again only when it asks more of the person', () => {
  // previous type and priority, next type and priority → sounds again
  const TABLE: [string, Priority, string, Priority, boolean][] = [
    ['permission_required', 'high', 'permission_required', 'high', false],
    ['permission_required', 'high', 'permission_required', 'low', false],
    ['permission_required', 'high', 'permission_required', 'critical', true],
    ['info', 'normal', 'info', 'normal', false],
    ['info', 'normal', 'permission_required', 'normal', true],
    ['permission_required', 'normal', 'info', 'normal', false],
    ['input_required', 'normal', 'permission_required', 'normal', true],
  ];
  for (const [previousType, previousPriority, nextType, nextPriority, sounds] of TABLE) {
    it(`${previousType}/${previousPriority} -> ${nextType}/${nextPriority}: ${sounds ? 'sounds' : 'stays quiet'}`, () => {
      assert.equal(
        updateSounds(
          { type: previousType, priority: previousPriority },
          { type: nextType, priority: nextPriority },
          {},
        ),
        sounds,
      );
    });
  }
});
