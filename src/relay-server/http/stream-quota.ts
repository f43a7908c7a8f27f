/** How many event streams one installation credential, or one browser session, may hold open at once. */
export const MAX_STREAMS_PER_HOLDER = 8;

export class StreamQuota {
  private readonly open = new Map<string, number>();

  constructor(private readonly max = MAX_STREAMS_PER_HOLDER) {}

  /** A slot for one more stream of `holder`, with its release; undefined when all are taken. */
  take(holder: string): (() => void) | undefined {
    const count = this.open.get(holder) ?? 0;
    if (count >= this.max) return undefined;
    this.open.set(holder, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(holder) ?? 1) - 1;
      if (left === 0) this.open.delete(holder);
      else this.open.set(holder, left);
    };
  }
}
