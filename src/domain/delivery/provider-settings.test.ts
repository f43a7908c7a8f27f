import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettingDeclaration } from '../../delivery/provider.js';
import { validateSettings } from './provider-settings.js';

const DECLARATIONS: readonly SettingDeclaration[] = [
  {
    name: 'url',
    type: 'url',
    required: true,
    secret: false,
    help: 'Where to post.',
    credentialsIn: 'username and password',
  },
  { name: 'token', type: 'string', required: true, secret: true, help: 'The API token.' },
  { name: 'password', type: 'string', required: false, secret: true, help: 'A password.' },
  { name: 'retries', type: 'integer', required: false, secret: false, help: 'Retries.', default: 3 },
  { name: 'verbose', type: 'boolean', required: false, secret: false, help: 'Verbose.' },
  {
    name: 'format',
    type: 'enum',
    required: false,
    secret: false,
    help: 'Format.',
    choices: ['json', 'form'],
    default: 'json',
  },
  {
    name: 'channel',
    type: 'string',
    required: false,
    secret: false,
    help: 'Channel.',
    problem: (value) => (value.startsWith('#') ? undefined : 'must start with #'),
  },
];

const VALID = { url: 'https://example.com/hook', token: 's3cret' };

function refusal(input: unknown, previous?: Parameters<typeof validateSettings>[2]): string {
  try {
    validateSettings(DECLARATIONS, input, previous);
  } catch (error) {
    assert.equal((error as Error).name, 'InvalidRequestError');
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(input)}`);
}

describe('validateSettings (provider create and update)', () => {
  it('splits plain settings from secrets and fills defaults', () => {
    const result = validateSettings(DECLARATIONS, { ...VALID, verbose: false, channel: '#ops' });
    assert.deepEqual(result.settings, {
      url: 'https://example.com/hook',
      retries: 3,
      verbose: false,
      format: 'json',
      channel: '#ops',
    });
    assert.deepEqual(result.secrets, new Map([['token', 's3cret']]));
    assert.deepEqual(result.clearSecrets, []);
  });

  it('refuses settings that are not an object', () => {
    for (const input of [null, [], 'x', 1]) assert.equal(refusal(input), 'settings must be an object');
  });

  it('names an unknown setting and the known ones', () => {
    assert.equal(
      refusal({ ...VALID, colour: 'red' }),
      'settings.colour is not a setting of this provider kind (known: url, token, password, retries, verbose, format, channel)',
    );
    assert.throws(() => validateSettings([], { a: 1 }), {
      message: 'settings.a is not a setting of this provider kind (known: none)',
    });
  });

  it('requires required settings, with their help, plain or secret', () => {
    assert.equal(refusal({ token: 't' }), 'settings.url is required: Where to post.');
    assert.equal(refusal(undefined), 'settings.url is required: Where to post.');
    assert.equal(refusal({ url: VALID.url }), 'settings.token is required: The API token.');
    assert.equal(refusal({ url: VALID.url, token: null }), 'settings.token is required: The API token.');
  });

  it('checks each type, naming the setting', () => {
    assert.equal(refusal({ ...VALID, verbose: 'yes' }), 'settings.verbose must be true or false');
    assert.equal(refusal({ ...VALID, retries: 1.5 }), 'settings.retries must be an integer');
    assert.equal(refusal({ ...VALID, retries: '3' }), 'settings.retries must be an integer');
    assert.equal(refusal({ ...VALID, format: 'xml' }), 'settings.format must be one of json, form');
    assert.equal(refusal({ ...VALID, format: 1 }), 'settings.format must be one of json, form');
    assert.equal(refusal({ ...VALID, channel: '' }), 'settings.channel must be a non-empty string');
    assert.equal(refusal({ ...VALID, channel: 5 }), 'settings.channel must be a non-empty string');
    assert.equal(refusal({ ...VALID, channel: 'ops' }), 'settings.channel: must start with #');
    assert.equal(refusal({ ...VALID, token: '' }), 'settings.token must be a non-empty string');
    const ok = validateSettings(DECLARATIONS, { ...VALID, retries: 0, verbose: true, format: 'form' });
    assert.deepEqual(
      [ok.settings['retries'], ok.settings['verbose'], ok.settings['format']],
      [0, true, 'form'],
    );
  });

  it('takes only absolute http and https URLs without credentials', () => {
    assert.equal(
      validateSettings(DECLARATIONS, { ...VALID, url: 'http://127.0.0.1:8080/x' }).settings['url'],
      'http://127.0.0.1:8080/x',
    );
    assert.equal(
      refusal({ ...VALID, url: '/relative' }),
      'settings.url must be an absolute URL, e.g. https://example.com/path',
    );
    assert.equal(
      refusal({ ...VALID, url: 42 }),
      'settings.url must be an absolute URL, e.g. https://example.com/path',
    );
    assert.equal(
      refusal({ ...VALID, url: 'file:///etc/passwd' }),
      'settings.url must be an http or https URL, e.g. https://example.com/path (not file:)',
    );
    for (const url of ['https://me:pw@example.com/', 'https://me@example.com/', 'https://:pw@example.com/']) {
      assert.equal(
        refusal({ ...VALID, url }),
        'settings.url must not hold a user name or password (user:password@): it would be stored and shown in clear; use username and password instead',
      );
    }
    const bare: SettingDeclaration[] = [
      { name: 'u', type: 'url', required: false, secret: false, help: 'h' },
    ];
    assert.throws(() => validateSettings(bare, { u: 'https://a:b@x.org' }), {
      message:
        'settings.u must not hold a user name or password (user:password@): it would be stored and shown in clear',
    });
  });

  it('on update keeps what is not sent, never echoes secrets, and clears a secret sent as null', () => {
    const previous = {
      settings: { url: 'https://old.example/', retries: 7, format: 'form' },
      secretNames: ['token', 'password'],
    };
    const result = validateSettings(DECLARATIONS, { retries: 1, password: null }, previous);
    assert.deepEqual(result.settings, { url: 'https://old.example/', retries: 1, format: 'form' });
    assert.deepEqual(result.secrets, new Map());
    assert.deepEqual(result.clearSecrets, ['password']);
    assert.equal(refusal({ token: null }, previous), 'settings.token is required: The API token.');
    assert.equal(
      refusal({}, { settings: previous.settings, secretNames: [] }),
      'settings.token is required: The API token.',
    );
  });
});
