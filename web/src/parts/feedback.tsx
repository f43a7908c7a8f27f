import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { messageOf } from './use-load.js';

export interface Feedback {
  /** What the last action did or why it failed; read out by screen readers. */
  view: JSX.Element;
  /** Runs an action; its result sentence (or its error) becomes the feedback. */
  run: (action: () => Promise<string | void>) => Promise<void>;
  say: (text: string) => void;
}

export function useFeedback(): Feedback {
  const [text, setText] = useState('');
  const [failed, setFailed] = useState(false);
  const run = async (action: () => Promise<string | void>) => {
    try {
      const result = await action();
      setFailed(false);
      setText(result ?? '');
    } catch (failure) {
      setFailed(true);
      setText(messageOf(failure));
    }
  };
  const say = (next: string) => {
    setFailed(false);
    setText(next);
  };
  const view = (
    <p class={failed ? 'feedback failed' : 'feedback'} role={failed ? 'alert' : 'status'} aria-live="polite">
      {text}
    </p>
  );
  return { view, run, say };
}

/** A load error in the broker's words. */
export function LoadError({ error }: { error: string | undefined }) {
  return error ? (
    <p class="feedback failed" role="alert">
      {error}
    </p>
  ) : null;
}
