import { CONNECTION_FLAGS, optionText, parseArgs } from '../notify/args.js';
import { createClient, resolveConnection } from '../notify/connection.js';
import { CliError } from '../notify/failure.js';
import { printError } from '../notify/output.js';
import type { NotifyctlCommand } from './command.js';
import { CONNECTION_NOTE } from './command-help.js';
import { characterCount } from '../../domain/text.js';

const FLAGS = { ...CONNECTION_FLAGS, '--agent': { kind: 'value', name: 'agent' } } as const;

/**
 * `notifyctl mcp [--agent NAME]`: an MCP server on stdio (docs/mcp.md). The protocol owns stdout;
 * everything for people goes to stderr. It ends when the client closes stdin. The SDK is loaded only
 * here, so other notifyctl commands start without it.
 */
export const mcpCommand: NotifyctlCommand = {
  name: 'mcp',
  summary: 'an MCP server on stdio: tools to raise, resolve and list attention',
  help: () =>
    [
      'Usage: notifyctl mcp [--agent <name>]',
      '',
      "An MCP server on stdio: Notify's tools to raise, resolve and list attention (docs/mcp.md).",
      '--agent names the agent on what it raises. It ends when the client closes stdin.',
      CONNECTION_NOTE,
    ].join('\n'),
  run: async (argv) => {
    try {
      const parsed = parseArgs(
        argv,
        FLAGS,
        (flag) => `unknown option '${flag}' for mcp. Run 'notifyctl --help'.`,
      );
      const agent = optionText(parsed, 'agent')?.trim();
      if (agent !== undefined && (agent === '' || characterCount(agent) > 100)) {
        throw new CliError('--agent must be 1 to 100 characters.');
      }
      const { serveMcp } = await import('../../mcp/serve.js');
      printError(`notifyctl mcp: serving Notify's tools on stdio for ${resolveConnection(parsed).baseUrl}`);
      serveMcp({
        // Read per call: a broker that regenerated its token or moved is picked up without a restart.
        client: () => createClient(resolveConnection(parsed)),
        ...(agent !== undefined && { agent }),
        cwd: process.cwd(),
      });
      return 0;
    } catch (error) {
      printError((error as Error).message);
      return 1;
    }
  },
};
