import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserCommands } from './open-in-browser.js';

const URL = 'http://127.0.0.1:47821/login?code=abc';

describe('browserCommands: $BROWSER, then the platform opener', () => {
  const cases: [string, string | undefined, NodeJS.Platform, [string, ...string[]][]][] = [
    ['no $BROWSER on Linux', undefined, 'linux', [['xdg-open', URL]]],
    ['no $BROWSER on macOS', undefined, 'darwin', [['open', URL]]],
    ['no $BROWSER on Windows: nothing to start', undefined, 'win32', []],
    ['an empty $BROWSER', ' : ', 'linux', [['xdg-open', URL]]],
    [
      'one program',
      'firefox',
      'linux',
      [
        ['firefox', URL],
        ['xdg-open', URL],
      ],
    ],
    [
      'a program with options',
      'firefox --new-window',
      'linux',
      [
        ['firefox', '--new-window', URL],
        ['xdg-open', URL],
      ],
    ],
    [
      '%s places the URL',
      'w3m %s -no-mouse',
      'linux',
      [
        ['w3m', URL, '-no-mouse'],
        ['xdg-open', URL],
      ],
    ],
    [
      'entries separated like PATH, tried in order',
      'sensible-browser:/opt/b/chrome --incognito',
      'linux',
      [
        ['sensible-browser', URL],
        ['/opt/b/chrome', '--incognito', URL],
        ['xdg-open', URL],
      ],
    ],
  ];
  for (const [name, browser, platform, expected] of cases) {
    it(name, () => {
      const env = browser === undefined ? {} : { BROWSER: browser };
      assert.deepEqual(
        browserCommands(URL, env, platform).map(({ command, args }) => [command, ...args]),
        expected,
      );
    });
  }
});
