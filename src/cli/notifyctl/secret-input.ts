import { createInterface } from 'node:readline';

/**
 * Reads secret values from a prompt that does not echo, or, when stdin is not a terminal, one line
 * per secret from stdin. Never from argv, where other local users can read it.
 */
export async function readSecrets(names: readonly string[]): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  if (names.length === 0) return values;
  if (!process.stdin.isTTY) {
    const lines = (await readAll()).split(/\r?\n/);
    names.forEach((name, index) => {
      const line = lines[index];
      if (line === undefined || line === '')
        throw new Error(`no value for secret ${name} on stdin (one line per --secret)`);
      values.set(name, line);
    });
    return values;
  }
  for (const name of names) values.set(name, await promptHidden(`${name}: `));
  return values;
}

async function readAll(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const write = (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput;
    (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text: string) => {
      if (text.startsWith(question)) write.call(rl, question);
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}
