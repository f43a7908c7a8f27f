import { HELP_TOPICS, USAGE } from './help-texts.js';
import { printLine } from './output.js';

export function helpText(topic: string | undefined): string {
  return (topic !== undefined && Object.hasOwn(HELP_TOPICS, topic) ? HELP_TOPICS[topic] : undefined) ?? USAGE;
}

export async function run(argv: string[]): Promise<void> {
  printLine(helpText(argv[0]));
}
