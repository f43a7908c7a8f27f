import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isBuiltinType,
  MAX_LIFETIME_SECONDS,
  MAX_RESOLVE_AFTER_MINUTES,
  parseTypeDefinition,
  requireTypeId,
} from './type-definition-body.js';
import { activeDefinition, effectivePriority } from './type-definition.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.equal((error as Error).name, 'InvalidRequestError');
    return (error as Error).message;
  }
  assert.fail('accepted');
}

const LIFETIME_MESSAGE = `lifetimeSeconds must be a number from 0 to ${MAX_LIFETIME_SECONDS} (0: the toast stays until acted on)`;
const RESOLVE_MESSAGE = `resolveAfterMinutes must be a number from 0 to ${MAX_RESOLVE_AFTER_MINUTES} (0: never resolved by itself)`;
const ICON_MESSAGE =
  'icon must be a freedesktop icon name such as dialog-warning (letters, digits, "-", "_", "." or "+"; at most 128 characters)';
const SOUND_MESSAGE = 'sound must be chime, ping, alert, knock, the name of an imported sound, or none';

describe('parseTypeDefinition (PUT /v1/types/{id})', () => {
  it('an empty body is an enabled type with nothing else', () => {
    assert.deepEqual(parseTypeDefinition({}), { enabled: true });
  });

  it('null fields count as absent', () => {
    assert.deepEqual(
      parseTypeDefinition({
        enabled: null,
        defaultPriority: null,
        lifetimeSeconds: null,
        icon: null,
        sound: null,
        needsPerson: null,
        resolveAfterMinutes: null,
      }),
      { enabled: true },
    );
  });

  it('keeps every field a full body sends, normalizing the priority', () => {
    assert.deepEqual(
      parseTypeDefinition({
        enabled: false,
        defaultPriority: ' HIGH ',
        lifetimeSeconds: 0,
        icon: 'dialog-warning',
        sound: 'none',
        needsPerson: false,
        resolveAfterMinutes: 0,
      }),
      {
        enabled: false,
        defaultPriority: 'high',
        lifetimeSeconds: 0,
        icon: 'dialog-warning',
        sound: 'none',
        needsPerson: false,
        resolveAfterMinutes: 0,
      },
    );
  });

  it('refuses a body that is not an object, or an unknown field', () => {
    assert.equal(
      refusal(() => parseTypeDefinition([])),
      'request body must be a JSON object',
    );
    assert.equal(
      refusal(() => parseTypeDefinition({ colour: 'red' })),
      'unknown field "colour"; allowed fields are enabled, defaultPriority, lifetimeSeconds, icon, sound, needsPerson, resolveAfterMinutes, remindEveryMinutes, remindTimes',
    );
  });

  it('refuses enabled and needsPerson that are not booleans', () => {
    assert.equal(
      refusal(() => parseTypeDefinition({ enabled: 'true' })),
      'enabled must be true or false',
    );
    assert.equal(
      refusal(() => parseTypeDefinition({ needsPerson: 1 })),
      'needsPerson must be true or false',
    );
    assert.equal(parseTypeDefinition({ needsPerson: true }).needsPerson, true);
  });

  it('refuses a defaultPriority that is not one of the four', () => {
    for (const defaultPriority of ['urgent', '', 2]) {
      assert.equal(
        refusal(() => parseTypeDefinition({ defaultPriority })),
        'defaultPriority must be low, normal, high, or critical',
      );
    }
  });

  const RANGES: [field: string, max: number, message: string][] = [
    ['lifetimeSeconds', MAX_LIFETIME_SECONDS, LIFETIME_MESSAGE],
    ['resolveAfterMinutes', MAX_RESOLVE_AFTER_MINUTES, RESOLVE_MESSAGE],
  ];
  for (const [field, max, message] of RANGES) {
    it(`takes ${field} from 0 to ${max} and refuses one past either end`, () => {
      assert.equal(max, field === 'lifetimeSeconds' ? 86_400 : 43_200);
      for (const value of [0, 0.5, max]) {
        assert.equal(parseTypeDefinition({ [field]: value })[field], value);
      }
      for (const value of [-1, -0.001, max + 1, max + 0.5, Infinity, NaN, '10', true]) {
        assert.equal(
          refusal(() => parseTypeDefinition({ [field]: value })),
          message,
          String(value),
        );
      }
    });
  }

  it('takes freedesktop icon names up to 128 characters', () => {
    for (const icon of ['dialog-warning', 'a', 'A1_b.c+d-e', 'x'.repeat(128)]) {
      assert.equal(parseTypeDefinition({ icon }).icon, icon);
    }
    for (const icon of ['', '-lead', '.hidden', 'has space', 'x'.repeat(129), 'a/b', 5, 'ok\n']) {
      assert.equal(
        refusal(() => parseTypeDefinition({ icon })),
        ICON_MESSAGE,
        JSON.stringify(icon),
      );
    }
  });

  it('takes a tone, an imported sound name or none, and refuses anything else', () => {
    for (const sound of ['chime', 'knock', 'none', 'my-bell_2', '0']) {
      assert.equal(parseTypeDefinition({ sound }).sound, sound);
    }
    for (const sound of ['Chime', '', '-x', 'a b', 3, 'x'.repeat(65)]) {
      assert.equal(
        refusal(() => parseTypeDefinition({ sound })),
        SOUND_MESSAGE,
        JSON.stringify(sound),
      );
    }
  });
});

describe('type ids', () => {
  it('accepts an identifier and refuses anything else, quoting it', () => {
    assert.equal(requireTypeId('deploy_2'), 'deploy_2');
    assert.equal(
      refusal(() => requireTypeId('Deploy')),
      'type id "Deploy" is not valid; use 1-64 lower-case letters, digits and underscores, starting with a letter',
    );
  });

  it('knows the eight built-in types', () => {
    const builtins = [
      'info',
      'success',
      'warning',
      'error',
      'input_required',
      'permission_required',
      'completed',
      'blocked',
    ];
    for (const id of builtins) assert.equal(isBuiltinType(id), true, id);
    for (const id of ['deploy', 'Info', 'input-required', '']) assert.equal(isBuiltinType(id), false, id);
  });
});

describe('effectivePriority (spec "Priority")', () => {
  const catalog = {
    deploy: { enabled: true, defaultPriority: 'high' as const },
    quiet: { enabled: false, defaultPriority: 'critical' as const },
    plain: { enabled: true },
  };
  const TABLE: [requested: 'low' | undefined, type: string, expected: string][] = [
    ['low', 'deploy', 'low'],
    [undefined, 'deploy', 'high'],
    [undefined, 'quiet', 'normal'],
    [undefined, 'plain', 'normal'],
    [undefined, 'unknown', 'normal'],
    [undefined, 'toString', 'normal'],
  ];
  for (const [requested, type, expected] of TABLE) {
    it(`${requested ?? 'no'} priority on type ${type} is ${expected}`, () =>
      assert.equal(effectivePriority(requested, type, catalog), expected));
  }

  it('only an enabled definition is active', () => {
    assert.deepEqual(activeDefinition(catalog, 'deploy'), catalog.deploy);
    assert.equal(activeDefinition(catalog, 'quiet'), undefined);
    assert.equal(activeDefinition(catalog, 'constructor'), undefined);
  });
});
