import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTempHome, writeConfig, type TempHome } from '../support/broker-process.js';
import { NOBODY, settle, startForeignServer, type ForeignServer } from '../support/foreign-server.js';
import { NOTIFYCTL } from '../support/notifyctl-cli.js';

interface ToolAnswer {
  content: { type: string; text: string }[];
  isError?: boolean;
}

const TOOL_CALLS: readonly [string, Record<string, unknown>][] = [
  [
    'raise_attention',
    { title: 'Approve the deploy?', message: 'v2 is ready.', kind: 'permission', key: 'k' },
  ],
  ['resolve_attention', { key: 'k' }],
  ['resolve_attention', { id: 'n1' }],
  ['list_attention', {}],
];

describe('notifyctl mcp and a listener of another user', () => {
  let server: ForeignServer;
  let home: TempHome;
  let client: Client;
  before(async () => {
    server = await startForeignServer('127.0.0.1');
    home = createTempHome();
    writeConfig(home, { port: server.port, authToken: 'mcp-secret-token-0123456789' });
    client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [NOTIFYCTL, 'mcp'],
        env: home.env as Record<string, string>,
        cwd: home.home,
        stderr: 'pipe',
      }),
    );
  });
  after(async () => {
    await client.close();
    server.stop();
    home.cleanup();
  });

  for (const [tool, args] of TOOL_CALLS) {
    it(`${tool} ${JSON.stringify(args)} sends nothing to a server of uid ${NOBODY} and tells the agent why`, async () => {
      const before = server.received().length;
      const answer = (await client.callTool({ name: tool, arguments: args })) as ToolAnswer;
      assert.deepEqual(answer, {
        content: [
          {
            type: 'text',
            text:
              `The program listening at http://127.0.0.1:${server.port} belongs to another user (uid ${NOBODY}), ` +
              `so nothing was sent to it (it could be waiting for the token). The person has to stop that program, ` +
              `or run Notify on another port.`,
          },
        ],
        isError: true,
      });
      await settle();
      assert.equal(server.received().slice(before), '', 'not one byte reached the foreign server');
    });
  }
});
