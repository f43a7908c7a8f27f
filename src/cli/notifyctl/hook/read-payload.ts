/** Payloads larger than this are drained but not kept: PostToolUse can carry a whole tool output. */
const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

/**
 * The hook payload the tool writes to stdin, as text; undefined when stdin is a terminal or larger
 * than the cap. Reading stops at `deadlineMs` after the start whether or not data still trickles in
 * (what arrived by then is returned): a tool that never closes stdin, or a writer that sends a byte
 * now and then, must not hold the hook.
 */
export function readStdinPayload(deadlineMs: number): Promise<string | undefined> {
  const stdin = process.stdin;
  if (stdin.isTTY) return Promise.resolve(undefined);
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(finish, deadlineMs);
    function finish(): void {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.pause();
      stdin.unref?.();
      done(size <= MAX_PAYLOAD_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined);
    }
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_PAYLOAD_BYTES) chunks.push(chunk);
    });
    stdin.once('end', finish);
    stdin.once('error', finish);
  });
}
