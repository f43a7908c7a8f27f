// A stand-in of the Anthropic Messages API for watching the real Claude Code offline (observe-claude.mjs,
// observe-claude-headless.mjs): a prompt `RUN: <command>` gets a Bash tool call, a tool's result or any
// other prompt a short text. With `failing`, every model request is refused with 400 instead, which ends
// the turn in Claude Code's StopFailure.
import { createServer } from 'node:http';

export function startStandIn({ failing = false } = {}) {
  let count = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (!request.url.startsWith('/v1/messages') || request.url.includes('count_tokens')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(request.url.includes('count_tokens') ? '{"input_tokens":10}' : '{}');
        return;
      }
      if (failing) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'invalid_request_error', message: 'stand-in refuses' },
          }),
        );
        return;
      }
      const asked = JSON.parse(body || '{}');
      const lastUser = (asked.messages ?? []).filter((message) => message.role === 'user').at(-1);
      const blocks = Array.isArray(lastUser?.content)
        ? lastUser.content
        : [{ type: 'text', text: String(lastUser?.content ?? '') }];
      const text = blocks
        .filter((block) => block.type === 'text')
        .map((block) => block.text)
        .join('\n');
      const hasBash = (asked.tools ?? []).some((tool) => tool.name === 'Bash');
      const run = hasBash ? /^RUN: (.+)$/m.exec(text) : null;
      const id = ++count;
      const content = run
        ? [{ type: 'tool_use', id: `toolu_stand_in_${id}`, name: 'Bash', input: { command: run[1] } }]
        : [{ type: 'text', text: blocks.some((block) => block.type === 'tool_result') ? 'Done.' : 'OK' }];
      const stop = run ? 'tool_use' : 'end_turn';
      const message = { id: `msg_stand_in_${id}`, type: 'message', role: 'assistant', model: asked.model };
      const usage = { input_tokens: 10, output_tokens: 5 };
      if (!asked.stream) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ...message, content, stop_reason: stop, stop_sequence: null, usage }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const event = (type, data) =>
        response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      event('message_start', {
        message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage },
      });
      content.forEach((block, index) => {
        if (block.type === 'text') {
          event('content_block_start', { index, content_block: { type: 'text', text: '' } });
          event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
        } else {
          event('content_block_start', { index, content_block: { ...block, input: {} } });
          const partial_json = JSON.stringify(block.input);
          event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
        }
        event('content_block_stop', { index });
      });
      event('message_delta', {
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: 5 },
      });
      event('message_stop', {});
      response.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
