/**
 * The baseline of the broker benchmark: a bare node:http server doing the least work a create can do
 * — parse the JSON body, one better-sqlite3 insert into the same table with the same pragmas, answer
 * 201 with a JSON body of the broker's size — and the least work a list can do (one SELECT,
 * JSON.stringify). Run as its own process, like notifyd, so both are measured the same way:
 *
 *   node dist/bench/baseline-server.js <database file> [port] [--group-commit]
 *
 * prints `baseline listening on <port>` once it listens on a free loopback port (or on the port given
 * as a second argument). GET /health answers 200, the daemon start-up bench's sign of readiness.
 *
 * With --group-commit it is the group-commit limit instead: the inserts that arrive during one turn of
 * the event loop are committed together in one BEGIN IMMEDIATE transaction, each answered after that
 * commit (the broker's WriteQueue without its savepoints and bookkeeping): the most a create can do at
 * this durability. Without it, each insert is its own commit.
 */
import Database from '../src/store/sqlite.js';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { PRAGMAS } from '../src/store/database.js';
import { MIGRATIONS } from '../src/store/migrations.js';

interface Body {
  title: string;
  message: string;
  type?: string;
  priority?: string;
  agent?: string;
  project?: string;
  cwd?: string;
  pid?: number;
  metadata?: Record<string, unknown>;
}

const groupCommit = process.argv.includes('--group-commit');
const [file, port] = process.argv.slice(2).filter((arg) => arg !== '--group-commit');
if (!file) throw new Error('usage: baseline-server <database file> [port] [--group-commit]');

const db = new Database(file);
for (const pragma of PRAGMAS) db.pragma(pragma);
// The broker's own schema, indexes included, so both pay for the same index maintenance; user_version
// is kept so the bench's seeding (openDatabase) sees the file as migrated.
if (db.pragma('user_version', { simple: true }) === 0) {
  for (const migration of MIGRATIONS) {
    db.exec(migration.sql);
    db.pragma(`user_version = ${migration.version}`);
  }
}

const insert = db.prepare(`
  INSERT INTO notifications (id, agent, project, type, priority, title, message, cwd, pid, status,
                             created_at, updated_at, metadata)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)`);
const list = db.prepare(`SELECT * FROM notifications ORDER BY seq DESC LIMIT ?`);

type Insert = () => void;
let queued: { insert: Insert; answer: () => void }[] = [];
const commitQueued = db.transaction((inserts: Insert[]) => {
  for (const insert of inserts) insert();
});

/** Runs `insert` now (its own commit), or with --group-commit in this turn's batch; then `answer`. */
function write(insert: Insert, answer: () => void): void {
  if (!groupCommit) {
    insert();
    answer();
    return;
  }
  if (queued.length === 0) {
    setImmediate(() => {
      const batch = queued;
      queued = [];
      commitQueued.immediate(batch.map((item) => item.insert));
      for (const item of batch) item.answer();
    });
  }
  queued.push({ insert, answer });
}

/** With a Content-Length, as fastify answers: writeHead without one would make the answer chunked. */
function send(response: ServerResponse, status: number, payload: string): void {
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(payload),
    })
    .end(payload);
}

function create(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
    const now = Date.now();
    const stamp = new Date(now).toISOString();
    const id = randomUUID();
    const metadata = body.metadata ? JSON.stringify(body.metadata) : null;
    const row = () =>
      insert.run(
        id,
        body.agent ?? 'unknown',
        body.project ?? null,
        body.type ?? 'info',
        body.priority ?? 'normal',
        body.title,
        body.message,
        body.cwd ?? null,
        body.pid ?? null,
        now,
        now,
        metadata,
      );
    const payload = JSON.stringify({
      id,
      agent: body.agent ?? 'unknown',
      project: body.project,
      type: body.type ?? 'info',
      priority: body.priority ?? 'normal',
      title: body.title,
      message: body.message,
      cwd: body.cwd,
      pid: body.pid,
      status: 'active',
      createdAt: stamp,
      updatedAt: stamp,
      metadata: body.metadata ?? null,
    });
    write(row, () => send(response, 201, payload));
  });
}

function listNewest(url: URL, response: ServerResponse): void {
  const limit = Math.min(500, Math.max(1, Number(url.searchParams.get('limit') ?? 100)));
  const payload = JSON.stringify(list.all(limit));
  send(response, 200, payload);
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/v1/notifications' && request.method === 'POST') return create(request, response);
  if (url.pathname === '/v1/notifications' && request.method === 'GET') return listNewest(url, response);
  if (url.pathname === '/health') return send(response, 200, '{"status":"ok"}');
  response.writeHead(404).end();
});

server.listen(Number(port ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`baseline listening on ${typeof address === 'object' && address ? address.port : 0}`);
});

process.once('SIGTERM', () => server.close(() => (db.close(), process.exit(0))));
