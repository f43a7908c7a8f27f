/** A JSON settings file as read: its object, how it was laid out, and its exact text. */
export interface SettingsText {
  /** Undefined when the file does not exist. */
  text?: string;
  settings: Record<string, unknown>;
  indent: string;
  finalNewline: boolean;
}

/** The file holds something a merge cannot work on; the message says what, for the person to fix. */
export class MalformedSettingsError extends Error {
  override name = 'MalformedSettingsError';
}

/**
 * Reads a tool's settings leniently where it costs nothing (an absent or blank file is empty
 * settings) and strictly where a merge could damage it: anything but a JSON object, or a `hooks` that
 * is not an object, is refused. Layout (indent, final newline) is kept so a rewrite changes only
 * the lines it must.
 */
export function parseSettings(text: string | undefined): SettingsText {
  if (text === undefined || text.trim() === '') {
    return { ...(text !== undefined && { text }), settings: {}, indent: '  ', finalNewline: true };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MalformedSettingsError(`it is not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MalformedSettingsError('it does not hold a JSON object');
  }
  const hooks = (value as Record<string, unknown>)['hooks'];
  if (hooks !== undefined && (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))) {
    throw new MalformedSettingsError('its "hooks" field is not an object');
  }
  return {
    text,
    settings: value as Record<string, unknown>,
    indent: /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ',
    finalNewline: text.endsWith('\n'),
  };
}

export function serializeSettings(settings: Record<string, unknown>, layout: SettingsText): string {
  const text = JSON.stringify(settings, null, layout.indent);
  return layout.finalNewline ? `${text}\n` : text;
}
