import { closedObject, str, type JsonSchema } from './schema-kit.js';

const ID: JsonSchema = { type: 'integer', minimum: 0, maximum: 4294967295 };
const PATH = str({ minLength: 1, maxLength: 1024, description: 'an absolute path' });
const place = (kind: string, fields: Record<string, JsonSchema>, required: string[]): JsonSchema =>
  closedObject({ kind: { const: kind }, ...fields }, ['kind', ...required]);

/** The `origin` extension field (docs/focus.md): where the agent runs, innermost first. */
export const ORIGIN: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 8,
  description:
    'where the agent runs, innermost first (an extension; absent when unknown): tmux pane, kitty window, X11 window, ...',
  items: {
    oneOf: [
      place('tmux', { socket: PATH, pane: str({ pattern: '^%\\d{1,9}$' }) }, ['socket', 'pane']),
      place('screen', { session: str({ maxLength: 200 }), window: ID }, ['session']),
      place('zellij', { session: str({ maxLength: 100 }), pane: ID }, ['session']),
      place('kitty', { window: ID, listenOn: str({ pattern: '^(unix:|tcp:)', maxLength: 1024 }) }, [
        'window',
      ]),
      place('wezterm', { pane: ID, socket: PATH }, ['pane']),
      place('x11', { window: ID, display: str({ maxLength: 100 }) }, ['window']),
      place('vscode', { editor: { enum: ['code', 'cursor'] }, folder: PATH }, ['editor', 'folder']),
      place('iterm2', { session: str({ maxLength: 100 }) }, ['session']),
      place('windows-terminal', { session: str({ minLength: 36, maxLength: 36 }) }, ['session']),
      place('tty', { path: str({ pattern: '^/dev/', maxLength: 100 }) }, ['path']),
    ],
  },
};

/** POST /v1/notifications/{id}/focus's answer. */
export const FOCUS_RESULT: JsonSchema = closedObject(
  {
    focused: { const: true },
    how: str({ description: 'the kind of the place focused: tmux, kitty, wezterm, x11, vscode, iterm2' }),
    outer: str({ description: 'the outer window also raised, when there is one (x11, kitty, ...)' }),
  },
  ['focused', 'how'],
);
