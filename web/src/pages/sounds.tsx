import { useApi } from '../parts/api-context.js';
import { LoadError, useFeedback } from '../parts/feedback.js';
import { useLoad } from '../parts/use-load.js';

/** Built-in tones and imported sounds: play one on this machine's speakers, import a file, remove one. */
export function Sounds() {
  const api = useApi();
  const feedback = useFeedback();
  const sounds = useLoad(() => api.sounds());

  const importFile = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const file = data.get('file');
    const name = String(data.get('name') ?? '').trim() || nameOf(file);
    if (!(file instanceof File) || file.size === 0) {
      feedback.say('Choose a .wav or .mp3 file first.');
      return;
    }
    void feedback.run(async () => {
      await api.importSound(name, file);
      form.reset();
      sounds.reload();
      return `Imported ${name}.`;
    });
  };

  return (
    <section aria-labelledby="sounds-heading">
      <h1 id="sounds-heading">Sounds</h1>
      {feedback.view}
      <LoadError error={sounds.error} />
      <ul class="plain sounds">
        {sounds.data?.map((sound) => (
          <li key={sound.name}>
            <span class="name">{sound.name}</span>
            <span class="tag">
              {sound.kind === 'builtin' ? 'built-in' : `${sound.format}, ${kib(sound.bytes)}`}
            </span>
            <button
              type="button"
              aria-label={`Play ${sound.name}`}
              onClick={() =>
                feedback.run(
                  async () => `Playing ${sound.name} with ${(await api.playSound(sound.name)).player}.`,
                )
              }
            >
              Play
            </button>
            {sound.kind === 'imported' && (
              <button
                type="button"
                aria-label={`Remove ${sound.name}`}
                onClick={() =>
                  feedback.run(async () => {
                    await api.deleteSound(sound.name);
                    sounds.reload();
                    return `Removed ${sound.name}.`;
                  })
                }
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <form class="inline" onSubmit={importFile} aria-label="Import a sound">
        <label>
          File <input type="file" name="file" accept=".wav,.mp3,audio/wav,audio/mpeg" />
        </label>
        <label>
          Name <input name="name" pattern="[a-z0-9][a-z0-9_\-]{0,63}" placeholder="from the file name" />
        </label>
        <button type="submit">Import</button>
      </form>
    </section>
  );
}

/** A sound name from a file name: "Door Bell.wav" → "door-bell". */
function nameOf(file: FormDataEntryValue | null): string {
  if (!(file instanceof File)) return '';
  return file.name
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
}

function kib(bytes: number): string {
  return `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}
