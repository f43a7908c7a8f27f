import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One wrk run of POSTs with a JSON body; resolves to requests per second (non-2xx answers fail it). */
export async function wrkPost(
  url: string,
  headers: Record<string, string>,
  body: string,
  connections: number,
  seconds: number,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-wrk-'));
  const script = join(dir, 'post.lua');
  const lua = [
    `wrk.method = "POST"`,
    `wrk.body = ${JSON.stringify(body)}`,
    ...Object.entries({ 'content-type': 'application/json', ...headers }).map(
      ([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`,
    ),
  ];
  writeFileSync(script, `${lua.join('\n')}\n`);
  try {
    const output = await new Promise<string>((resolve, reject) =>
      execFile('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', script, url], (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    );
    if (/Non-2xx or 3xx responses/.test(output)) throw new Error(`wrk saw failed answers:\n${output}`);
    const match = /Requests\/sec:\s+([\d.]+)/.exec(output);
    if (!match) throw new Error(`no Requests/sec in wrk output:\n${output}`);
    return Number(match[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
