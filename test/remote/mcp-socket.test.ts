import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { NotificationDto } from '../../src/client/api-types.js';
import { freePort, startBroker } from '../support/broker-process.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';

describe('notifyctl mcp over the Unix socket', () => {
  it('an agent in a container raises through MCP with only the socket and its token; list shows its own', async () => {
    const broker = await startBroker();
    const home = mkdtempSync(join(tmpdir(), 'notify-mcp-container-'));
    const token = (
      (await (await broker.request('POST', '/v1/tokens', { name: 'mcp-box' })).json()) as { token: string }
    ).token;
    await broker.request('POST', '/v1/notifications', { title: 'Owner only', message: 'not for agents' });
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [NOTIFYCTL, 'mcp', '--agent', 'claude-code'],
          env: {
            PATH: process.env['PATH']!,
            HOME: home,
            NOTIFY_SOCKET: join(broker.home.home, '.local', 'state', 'notify', 'notify.sock'),
            NOTIFY_TOKEN: token,
            NOTIFY_PORT: String(await freePort()),
          },
          cwd: home,
          stderr: 'pipe',
        }),
      );
      const raised = (await client.callTool({
        name: 'raise_attention',
        arguments: { title: 'Review needed', message: 'PR 12 waits', kind: 'question' },
      })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
      assert.equal(raised.isError, undefined, JSON.stringify(raised));
      const id = raised.structuredContent!['id'] as string;
      const stored = (await (
        await broker.request('GET', `/v1/notifications/${id}`)
      ).json()) as NotificationDto;
      assert.equal(stored.raisedBy, 'mcp-box');
      const listed = (await client.callTool({ name: 'list_attention', arguments: {} })) as {
        content: { text: string }[];
      };
      const text = listed.content.map((part) => part.text).join('\n');
      assert.match(text, /Review needed/);
      assert.doesNotMatch(text, /Owner only/);
    } finally {
      await client.close();
      rmSync(home, { recursive: true, force: true });
      await broker.stop();
      broker.home.cleanup();
    }
  });
});
