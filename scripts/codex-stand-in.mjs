// A stand-in of the OpenAI Responses API for watching the real Codex offline (observe-codex-tui.mjs):
// Codex reaches it through a model provider of its config.toml (`base_url`, `wire_api = "responses"`).
// A prompt `RUN: <command>` gets a call of the shell tool Codex offers (exec_command, shell_command or
// shell, whichever the request lists) asking to run outside the sandbox, which under
// `approval_policy = "on-request"` needs the person's approval; the tool's result, or any other
// prompt, a short text. Every
// request it answers is kept in `requests` (path and tool names), so a run can say what Codex asked.
import { createServer } from 'node:http';

const ESCALATED = { sandbox_permissions: 'require_escalated', justification: 'Notify observation' };

/** The shell tools of Codex builds, newest first, with the arguments each takes for one command. */
const SHELL_TOOLS = [
  ['exec_command', (command) => ({ cmd: command, ...ESCALATED })],
  ['shell_command', (command) => ({ command, ...ESCALATED })],
  ['shell', (command) => ({ command: ['bash', '-lc', command], with_escalated_permissions: true })],
];

const sse = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The text of the last message a person wrote, and whether a tool's output came after it. */
function lastTurn(input) {
  let text = '';
  let toolOutput = false;
  for (const item of Array.isArray(input) ? input : []) {
    if (item.type === 'message' && item.role === 'user') {
      const parts = Array.isArray(item.content) ? item.content : [];
      text = parts.map((part) => part.text ?? '').join('\n');
      toolOutput = false;
    } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      toolOutput = true;
    }
  }
  return { text, toolOutput };
}

function toolNames(tools) {
  return (Array.isArray(tools) ? tools : []).map((tool) => tool.name ?? tool.type).filter(Boolean);
}

export function startCodexStandIn() {
  let count = 0;
  const requests = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url.endsWith('/responses')) {
        requests.push({ path: `${request.method} ${request.url}` });
        response.writeHead(request.url.includes('/models') ? 200 : 404, {
          'content-type': 'application/json',
        });
        response.end(request.url.includes('/models') ? '{"data":[],"models":[]}' : '{}');
        return;
      }
      const asked = JSON.parse(body || '{}');
      const offered = toolNames(asked.tools);
      requests.push({ path: `POST ${request.url}`, tools: offered });
      const { text, toolOutput } = lastTurn(asked.input);
      const run = toolOutput ? null : /^RUN: (.+)$/m.exec(text);
      const shell = SHELL_TOOLS.find(([name]) => offered.includes(name));
      const id = ++count;
      const item =
        run && shell
          ? {
              type: 'function_call',
              id: `fc_${id}`,
              call_id: `call_${id}`,
              name: shell[0],
              arguments: JSON.stringify(shell[1](run[1])),
            }
          : {
              type: 'message',
              role: 'assistant',
              id: `msg_${id}`,
              content: [{ type: 'output_text', text: toolOutput ? 'Done.' : 'Hello.', annotations: [] }],
            };
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(sse('response.created', { response: { id: `resp_${id}` } }));
      response.write(sse('response.output_item.done', { output_index: 0, item }));
      response.end(
        sse('response.completed', {
          response: {
            id: `resp_${id}`,
            usage: {
              input_tokens: 10,
              input_tokens_details: null,
              output_tokens: 5,
              output_tokens_details: null,
              total_tokens: 15,
            },
          },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(Object.assign(server, { requests }))),
  );
}
