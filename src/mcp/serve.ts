import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { NotifyClient } from '../client/notify-client.js';
import { VERSION } from '../version.js';
import { registerAttentionTools } from './attention-tools.js';
import { originFromEnv } from '../client/origin-from-env.js';

export interface ServeOptions {
  client: () => NotifyClient;
  /** The producer name given with --agent; else the MCP client's own name, else `mcp`. */
  agent?: string;
  cwd: string;
}

/** Serves Notify's tools over stdio until the client closes stdin. */
export function serveMcp(options: ServeOptions): void {
  // The agent starts the server in its own terminal: the server's environment says where that is.
  const origin = originFromEnv(process.env, options.cwd);
  serveStdio(() => {
    const server = new McpServer({ name: 'notify', title: 'Notify', version: VERSION });
    registerAttentionTools(server, {
      client: options.client,
      defaultAgent: () => options.agent ?? server.server.getClientVersion()?.name ?? 'mcp',
      cwd: options.cwd,
      ...(origin !== undefined && { origin }),
    });
    return server;
  });
}
