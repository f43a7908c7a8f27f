import type { Place } from '../domain/origin.js';
import { FocusRefusedError } from './focus-refused.js';
import { firstLine, type RunProgram } from './run-program.js';

type EditorPlace = Extract<Place, { kind: 'vscode' }>;

/** `code --reuse-window <folder>` (or `cursor`): brings the editor window of that workspace forward. */
export async function focusEditor(place: EditorPlace, run: RunProgram): Promise<void> {
  const done = await run(place.editor, ['--reuse-window', place.folder]);
  if (done.missing) throw new FocusRefusedError(`the ${place.editor} command is not on Notify's PATH`);
  if (!done.ok)
    throw new FocusRefusedError(`${place.editor} did not open ${place.folder}: ${firstLine(done.stderr)}`);
}
