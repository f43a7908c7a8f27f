/**
 * Characters that make text display differently from what runs (conventions.md: "Text shown to a
 * person never hides how it runs"). A browser, a notification server or a tray menu draws them as
 * nothing, or reorders the text around them, so `ls ‮ hs.| lruc` reads backwards from what the shell
 * runs. Every surface shows them as `⟨U+202E⟩`, and a request holding one is answered in the terminal.
 *
 * The set, by code point:
 * - direction: U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069;
 * - invisible format and filler characters: U+00AD, U+034F, U+115F, U+1160, U+17B4, U+17B5,
 *   U+180B-U+180F, U+200B-U+200D, U+2060-U+2064, U+206A-U+206F, U+3164, U+FEFF, U+FFA0,
 *   U+FFF9-U+FFFB, U+1D173-U+1D17A, U+E0000-U+E007F (tags);
 * - controls: U+0000-U+001F except tab, line feed and carriage return, U+007F-U+009F, and the line and
 *   paragraph separators U+2028, U+2029.
 * Variation selectors stay: emoji need them, and they change no order and hide no letter.
 */
const CONTROLS =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- each is matched alone, on purpose
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}]/gu;

/** Why a request holding such characters offers no answer buttons (and why its answer is refused). */
export const TERMINAL_ONLY =
  'answer in the terminal: this text contains characters that change how it is displayed';

// eslint-disable-next-line no-misleading-character-class -- the same class, without the global flag
const ANY_CONTROL = new RegExp(CONTROLS.source, 'u');

export function hasDisplayControls(text: string): boolean {
  return ANY_CONTROL.test(text);
}

/** `U+202E`: the code point in hex, at least four digits, as Unicode writes it. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The text with every such character written visibly: `⟨U+202E⟩` by default, or as `render` says (the
 * log writes `\u202e`). Everything else is left exactly as it is.
 */
export function showControls(text: string, render = (char: string) => `⟨${codePointName(char)}⟩`): string {
  return text.replace(CONTROLS, render);
}

/** The parts of a notification a person reads before answering it. */
export interface ShownText {
  title: string;
  message?: string | null;
  actions?: readonly { label: string }[] | null;
}

/** Whether a request's title, message or action labels hold such characters: no surface offers its answers. */
export function answersWithheld(notification: ShownText): boolean {
  return [
    notification.title,
    notification.message ?? '',
    ...(notification.actions ?? []).map((a) => a.label),
  ].some(hasDisplayControls);
}
