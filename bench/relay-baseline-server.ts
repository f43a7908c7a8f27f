/**
 * The baseline of the relay ingest bench: a bare node:http server doing the least work a delivery can
 * do — parse the JSON body, one better-sqlite3 insert into the relay's own notifications table (same
 * schema, indexes and pragmas, made by RelayStore), answer 201 with the relay's response body. No
 * authentication, validation, idempotency record or live fan-out. Run as its own process, like the relay:
 *
 *   node dist/bench/relay-baseline-server.js <database file>
 *
 * prints `relay baseline listening on <port>`.
 */
import Database from 'better-sqlite3';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { SqliteDatabase } from '../src/relay-server/sqlite-database.js';
import { RelayStore } from '../src/relay-server/store.js';

const file = process.argv[2];
if (!file) throw new Error('usage: relay-baseline-server <database file>');

const INSTALLATION = 'i_baseline';
const schema = await RelayStore.open(new SqliteDatabase(file));
await schema.insertUser({
  id: 'u_baseline',
  username: 'baseline',
  passwordHash: '-',
  isOperator: true,
  createdAt: 0,
});
await schema.insertInstallation(
  { id: INSTALLATION, userId: 'u_baseline', name: 'baseline', client: null, createdAt: 0 },
  'not-a-credential',
);
await schema.close();

const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
const insert = db.prepare(`
  INSERT INTO notifications (installation_id, notification_id, lifecycle, title, message, type, priority,
    agent, project, status, actions, answer_action, answered_at, created_at, updated_at, changed_at)
  VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)`);

interface Body {
  title: string;
  message: string;
  type?: string;
  priority?: string;
  agent?: string;
  project?: string;
  status: string;
  actions?: unknown[];
  created_at: string;
  updated_at: string;
}

function put(id: string, request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
    insert.run(
      INSTALLATION,
      id,
      body.title,
      body.message,
      body.type ?? 'info',
      body.priority ?? 'normal',
      body.agent ?? 'unknown',
      body.project ?? null,
      body.status,
      JSON.stringify(body.actions ?? []),
      body.created_at,
      body.updated_at,
      Date.now(),
    );
    const payload = JSON.stringify({ id, lifecycle: 1, status: body.status });
    response
      .writeHead(201, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(payload),
      })
      .end(payload);
  });
}

const server = createServer((request, response) => {
  const match = /^\/v1\/notifications\/([^/?]+)$/.exec(request.url ?? '');
  if (match && request.method === 'PUT') return put(decodeURIComponent(match[1]!), request, response);
  response.writeHead(404).end();
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`relay baseline listening on ${typeof address === 'object' && address ? address.port : 0}`);
});

process.once('SIGTERM', () => server.close(() => (db.close(), process.exit(0))));
