import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { NotificationDto } from '../client/api-types.js';
import type { NotifyClient } from '../client/notify-client.js';
import type { Origin } from '../domain/origin.js';
import { describeFailure } from './failure-text.js';

/** Where the server runs: the agent starts it in its project, so cwd and project describe the work. */
export interface ToolContext {
  client: () => NotifyClient;
  /** The producer name when the agent gives none (the MCP client's own name, else `mcp`). */
  defaultAgent: () => string;
  cwd: string;
  project?: string;
  /** Where the agent that started the server runs (docs/focus.md). */
  origin?: Origin;
}

const KINDS = ['question', 'permission', 'blocked', 'failure', 'completion', 'information'] as const;
const PRIORITIES = ['low', 'normal', 'high', 'critical'] as const;

const notificationShape = z.object({
  id: z.string(),
  key: z.string().optional(),
  title: z.string(),
  message: z.string(),
  type: z.string(),
  priority: z.enum(PRIORITIES),
  status: z.enum(['active', 'dismissed', 'resolved']),
  agent: z.string(),
  project: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

type Summary = z.infer<typeof notificationShape>;

function summarize(n: NotificationDto): Summary {
  return {
    id: n.id,
    ...(n.key !== undefined && { key: n.key }),
    title: n.title,
    message: n.message,
    type: n.type,
    priority: n.priority,
    status: n.status,
    agent: n.agent,
    ...(n.project !== undefined && { project: n.project }),
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
  };
}

const line = (n: Summary) =>
  `${n.id} [${n.type}/${n.priority}] ${n.status} ${n.title}${n.key ? ` (key ${n.key})` : ''}`;

/** A tool answer: one readable line for the model, the same data structured for programs. */
function answer<T extends Record<string, unknown>>(text: string, structured: T) {
  return { content: [{ type: 'text' as const, text }], structuredContent: structured };
}

function failure(error: unknown) {
  return { content: [{ type: 'text' as const, text: describeFailure(error) }], isError: true };
}

/** The three tools of `notifyctl mcp`: raise (or update) attention, resolve it, list what waits. */
export function registerAttentionTools(server: McpServer, context: ToolContext): void {
  server.registerTool(
    'raise_attention',
    {
      title: 'Ask the person for attention',
      description:
        'Tell the person at this computer that you need them, or that something they care about happened. ' +
        'It appears at once as a desktop notification and in their Notify inbox. Use it when you are blocked ' +
        'on a question or a permission, when work failed, or when a long task finished; not for progress chatter. ' +
        'Give a stable `key` per condition (e.g. "myrepo:deploy-approval"): raising again with the same key ' +
        'updates that notification in place instead of adding a second one, and resolve_attention with the key ' +
        'takes it away once it is handled. Never put secrets, tokens, full prompts or tool output in the text.',
      inputSchema: z.object({
        title: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .describe('Short headline, e.g. "Approve the production deploy?"'),
        message: z
          .string()
          .trim()
          .min(1)
          .max(4000)
          .describe('What you need or what happened, in one or two sentences the person can act on.'),
        kind: z
          .enum(KINDS)
          .describe(
            'question: you need an answer; permission: you need approval; blocked: you cannot go on; ' +
              'failure: something failed; completion: a task finished; information: anything else.',
          ),
        key: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .optional()
          .describe(
            'Stable identity of this condition; reuse it to update or resolve the same notification.',
          ),
        priority: z
          .enum(PRIORITIES)
          .optional()
          .describe(
            'Defaults by kind: high for question, permission, blocked and failure; normal otherwise.',
          ),
        project: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .optional()
          .describe('Project name; defaults to the repository.'),
      }),
      outputSchema: notificationShape,
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (input) => {
      try {
        const notification = await context.client().sendEvent({
          arc_version: '0.1',
          event_id: randomUUID(),
          event_type: 'request.created',
          occurred_at: new Date().toISOString(),
          sender: { id: context.defaultAgent() },
          context: {
            cwd: context.cwd,
            ...((input.project ?? context.project) !== undefined && {
              project: input.project ?? context.project,
            }),
          },
          ...(context.origin !== undefined && { extensions: { 'x-notify': { origin: context.origin } } }),
          request: {
            kind: input.kind,
            title: input.title,
            message: input.message,
            ...(input.key !== undefined && { key: input.key }),
            ...(input.priority !== undefined && { priority: input.priority }),
          },
        });
        const summary = summarize(notification);
        return answer(`Raised: ${line(summary)}`, summary);
      } catch (error) {
        return failure(error);
      }
    },
  );

  server.registerTool(
    'resolve_attention',
    {
      title: 'Take a notification away',
      description:
        "Mark a condition you raised as handled, so it leaves the person's desktop and inbox: the question was " +
        'answered, the permission given, the blocker gone. Give the `key` you raised it with (preferred) or its `id`. ' +
        'Resolving again is harmless.',
      inputSchema: z
        .object({
          key: z.string().trim().min(1).max(100).optional().describe('The key given to raise_attention.'),
          id: z.string().trim().min(1).optional().describe('The id raise_attention answered with.'),
        })
        .refine((input) => (input.key === undefined) !== (input.id === undefined), {
          message: 'give exactly one of key or id',
        }),
      outputSchema: notificationShape,
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input) => {
      try {
        const notification =
          input.id !== undefined
            ? await context.client().setStatus(input.id, 'resolved')
            : await context.client().sendEvent({
                arc_version: '0.1',
                event_id: randomUUID(),
                event_type: 'request.resolved',
                occurred_at: new Date().toISOString(),
                sender: { id: context.defaultAgent() },
                request: { key: input.key },
              });
        const summary = summarize(notification);
        return answer(`Resolved: ${line(summary)}`, summary);
      } catch (error) {
        return failure(error);
      }
    },
  );

  server.registerTool(
    'list_attention',
    {
      title: 'List what waits for the person',
      description:
        'The notifications that are active right now (newest first): what the person still has to look at, ' +
        'from you and from other agents. Use it before raising something to avoid a duplicate, or to find the ' +
        'key of a condition to resolve.',
      inputSchema: z.object({
        project: z.string().trim().min(1).max(200).optional().describe('Only this project.'),
        agent: z.string().trim().min(1).max(100).optional().describe('Only this agent.'),
        limit: z.number().int().min(1).max(500).optional().describe('At most this many (default 20).'),
      }),
      outputSchema: z.object({ notifications: z.array(notificationShape) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (input) => {
      try {
        const active = await context.client().list({
          unresolved: true,
          limit: input.limit ?? 20,
          ...(input.project !== undefined && { project: input.project }),
          ...(input.agent !== undefined && { agent: input.agent }),
        });
        const notifications = active.map(summarize);
        const text =
          notifications.length === 0
            ? 'Nothing is waiting for the person.'
            : `${notifications.length} active:\n${notifications.map(line).join('\n')}`;
        return answer(text, { notifications });
      } catch (error) {
        return failure(error);
      }
    },
  );
}
