/** Passwords long enough but guessed first: common ones, one repeated character, simple sequences. */

/** Common passwords of 10 characters or more (shorter ones are refused by length already), lower case. */
const COMMON = new Set([
  '0123456789',
  '1234567890',
  '0987654321',
  '1q2w3e4r5t',
  '1qaz2wsx3edc',
  'a123456789',
  '123456789a',
  'abcd123456',
  'abc1234567',
  'qwertyuiop',
  'qwerty1234',
  'qwerty12345',
  'asdfghjkl;',
  'zxcvbnm,./',
  'password12',
  'password123',
  'password1234',
  'password1!',
  'passw0rd123',
  'iloveyou12',
  'iloveyou123',
  'letmein123',
  'welcome123',
  'changeme123',
  'administrator',
  'trustno1234',
  'football123',
  'baseball123',
  'superman123',
  'sunshine12',
  'princess12',
  'qazwsxedc123',
  'correcthorsebatterystaple',
  'notifyrelay',
  'notify-relay',
]);

/** The whole password is its first 1-3 characters over and over (`aaaaaaaaaa`, `abababababab`). */
function repeatsShortUnit(characters: string[]): boolean {
  for (let unit = 1; unit <= 3; unit++) {
    if (characters.every((character, index) => character === characters[index % unit])) return true;
  }
  return false;
}

/** Each character one up or one down from the last (`abcdefghij`, `9876543210`; digits wrap, `7890123456`). */
function isSimpleSequence(characters: string[]): boolean {
  const codes = characters.map((character) => character.codePointAt(0)!);
  const digits = characters.every((character) => /^\d$/.test(character));
  for (const step of [1, -1]) {
    const ok = codes.every((code, index) => {
      if (index === 0) return true;
      const previous = codes[index - 1]!;
      return digits ? (code - 48 - (previous - 48) - step + 20) % 10 === 0 : code - previous === step;
    });
    if (ok) return true;
  }
  return false;
}

/** Whether a password is too easy to guess, whatever its length. */
export function isTooSimple(password: string, username: string): boolean {
  const lower = password.toLowerCase();
  const characters = [...lower];
  return (
    COMMON.has(lower) ||
    COMMON.has(lower.replace(/\s+/g, '')) ||
    lower === username.toLowerCase() ||
    repeatsShortUnit(characters) ||
    isSimpleSequence(characters)
  );
}

export const TOO_SIMPLE_MESSAGE =
  'This password is too easy to guess: it is a common password, the user name, one character or a few repeated, or a simple sequence. Choose another.';
