import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startBroker, useBroker, type BrokerProcess } from '../support/broker-process.js';
import { NOTIFYCTL, runNotifyctl } from '../support/notifyctl-cli.js';

interface ToolAnswer {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

async function connectMcp(broker: BrokerProcess, args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [NOTIFYCTL, 'mcp', ...args],
    env: broker.home.env as Record<string, string>,
    cwd: broker.home.home,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<ToolAnswer>;

describe('notifyctl mcp over a real stdio pipe', () => {
  const broker = useBroker();
  let client: Client;
  before(async () => {
    client = await connectMcp(broker, ['--agent', 'claude-code']);
  });
  after(async () => client.close());

  it('lists the three tools, each with a description and an input schema', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      'list_attention',
      'raise_attention',
      'resolve_attention',
    ]);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 80, `${tool.name} explains itself`);
      assert.equal(tool.inputSchema.type, 'object');
    }
    const raise = tools.find((tool) => tool.name === 'raise_attention')!;
    assert.deepEqual([...(raise.inputSchema.required as string[])].sort(), ['kind', 'message', 'title']);
  });

  it("offers no tool that answers for the person: an agent never approves another agent's request", async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      assert.doesNotMatch(tool.name, /answer|approve|allow|deny|action/, tool.name);
      const properties = Object.keys((tool.inputSchema.properties ?? {}) as object);
      assert.ok(!properties.includes('action') && !properties.includes('actions'), tool.name);
    }
    const { id } = (await (
      await broker.request('POST', '/v1/notifications', {
        title: 'Run?',
        message: 'rm -rf build',
        actions: [{ id: 'allow', label: 'Allow' }],
      })
    ).json()) as { id: string };
    await assert.rejects(
      call(client, 'answer_attention', { id, action: 'allow' }),
      /answer_attention not found/,
    );
    const after = (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(after['status'], 'active');
    assert.equal('answer' in after, false);
  });

  it('raise_attention creates a notification in the broker, typed by kind, from the named agent', async () => {
    const answer = await call(client, 'raise_attention', {
      title: 'Approve the deploy?',
      message: 'Production deploy of v2 is ready.',
      kind: 'permission',
      key: 'mcp-test:deploy',
    });
    assert.equal(answer.isError, undefined);
    const id = answer.structuredContent!['id'] as string;
    assert.match(
      answer.content[0]!.text,
      /^Raised: .* \[permission_required\/high\] active Approve the deploy\? \(key mcp-test:deploy\)$/,
    );
    const stored = (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as Record<
      string,
      unknown
    >;
    assert.equal(stored['type'], 'permission_required');
    assert.equal(stored['priority'], 'high');
    assert.equal(stored['agent'], 'claude-code');
    assert.equal(stored['key'], 'mcp-test:deploy');
    assert.equal(stored['cwd'], broker.home.home);
  });

  it('raise_attention with the same key updates in place; resolve_attention by key ends it', async () => {
    const first = await call(client, 'raise_attention', {
      title: 'Tests failing',
      message: '3 failed',
      kind: 'failure',
      key: 'mcp-test:tests',
    });
    const second = await call(client, 'raise_attention', {
      title: 'Tests failing',
      message: '1 failed',
      kind: 'failure',
      key: 'mcp-test:tests',
    });
    assert.equal(second.structuredContent!['id'], first.structuredContent!['id']);
    assert.equal(second.structuredContent!['message'], '1 failed');
    const resolved = await call(client, 'resolve_attention', { key: 'mcp-test:tests' });
    assert.equal(resolved.structuredContent!['status'], 'resolved');
    const stored = (await (
      await broker.request('GET', `/v1/notifications/${first.structuredContent!['id']}`)
    ).json()) as Record<string, unknown>;
    assert.equal(stored['status'], 'resolved');
  });

  it('resolve_attention by id, and list_attention shows only what is active', async () => {
    const raised = await call(client, 'raise_attention', {
      title: 'Pick a branch',
      message: 'main or next?',
      kind: 'question',
    });
    let listed = await call(client, 'list_attention', {});
    const ids = (listed.structuredContent!['notifications'] as { id: string }[]).map((n) => n.id);
    assert.ok(ids.includes(raised.structuredContent!['id'] as string));
    await call(client, 'resolve_attention', { id: raised.structuredContent!['id'] });
    listed = await call(client, 'list_attention', {});
    const after = (listed.structuredContent!['notifications'] as { id: string }[]).map((n) => n.id);
    assert.ok(!after.includes(raised.structuredContent!['id'] as string));
  });

  it('answers a tool error the agent can act on for a missing condition or bad input', async () => {
    const missing = await call(client, 'resolve_attention', { key: 'never-raised' });
    assert.equal(missing.isError, true);
    assert.equal(missing.content[0]!.text, 'Notify answered 404 Not Found: notification not found');
    const both = await call(client, 'resolve_attention', { key: 'a', id: 'b' });
    assert.equal(both.isError, true);
    assert.match(both.content[0]!.text, /exactly one of key or id/);
    const tooLong = await call(client, 'raise_attention', {
      title: 'x'.repeat(201),
      message: 'm',
      kind: 'question',
    });
    assert.equal(tooLong.isError, true);
  });
});

describe('notifyctl mcp --agent', () => {
  const broker = useBroker();

  it('takes a name of 100 characters, an emoji counting as one, as notifications count agents', async () => {
    const agent = '🤖'.repeat(100);
    const client = await connectMcp(broker, ['--agent', agent]);
    try {
      const answer = await call(client, 'raise_attention', {
        title: 'Look',
        message: 'here',
        kind: 'information',
      });
      assert.equal(answer.isError, undefined, answer.content[0]?.text);
      const id = answer.structuredContent!['id'] as string;
      const stored = (await (await broker.request('GET', `/v1/notifications/${id}`)).json()) as {
        agent: string;
      };
      assert.equal(stored.agent, agent);
    } finally {
      await client.close();
    }
  });

  it('refuses an empty name and one over 100 characters before serving', async () => {
    for (const agent of ['  ', '🤖'.repeat(101)]) {
      const refused = await runNotifyctl(['mcp', '--agent', agent], { env: broker.home.env });
      assert.deepEqual(
        [refused.code, refused.stdout, refused.stderr],
        [1, '', '--agent must be 1 to 100 characters.\n'],
      );
    }
  });
});

describe('notifyctl mcp without a broker', () => {
  it('keeps serving and tells the agent how the person starts Notify', async () => {
    const broker = await startBroker();
    await broker.stop();
    const client = await connectMcp(broker);
    try {
      const answer = await call(client, 'list_attention', {});
      assert.equal(answer.isError, true);
      assert.match(
        answer.content[0]!.text,
        /^Could not reach Notify at http:\/\/127\.0\.0\.1:\d+: .+\. The person has to start it/,
      );
    } finally {
      await client.close();
      broker.home.cleanup();
    }
  });
});
