import { appendFileSync } from 'node:fs';

interface LoadContext {
  format?: string | null | undefined;
}
type NextLoad = (url: string, context: LoadContext) => Promise<unknown>;

/** The module customization hook of module-recorder.ts: notes each module, then loads it as usual. */
export async function load(url: string, context: LoadContext, nextLoad: NextLoad): Promise<unknown> {
  appendFileSync(process.env['NOTIFY_TEST_MODULES_FILE']!, `${url}\n`);
  return nextLoad(url, context);
}
