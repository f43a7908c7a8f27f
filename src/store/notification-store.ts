import type { Action, Answer } from '../domain/answers.js';
import type { Origin } from '../domain/origin.js';
import type { ListFilter } from '../domain/list-query.js';
import {
  newRecord,
  type NotificationDraft,
  type NotificationRecord,
  type Status,
} from '../domain/notification.js';
import type { Priority } from '../domain/priority.js';
import type { Statement } from 'better-sqlite3';
import type { AlertSchedule } from '../domain/reminders.js';
import type { Db } from './database.js';

/** Reopening would give a key a second active notification, which the schema forbids. */
export class ActiveKeyTakenError extends Error {
  override name = 'ActiveKeyTakenError';
}

/** A notifications row, as SQLite gives it. */
export interface NotificationRow {
  id: string;
  key: string | null;
  agent: string;
  agent_instance: string | null;
  project: string | null;
  type: string;
  priority: Priority;
  title: string;
  message: string;
  cwd: string | null;
  pid: number | null;
  status: Status;
  created_at: number;
  updated_at: number;
  resolved_at: number | null;
  metadata: string | null;
  /** JSON of the Action list (migration 5). */
  actions: string | null;
  /** JSON of the Answer (migration 5). */
  answer: string | null;
  /** When a snoozed notification comes back (migration 8); absent from intake copies. */
  snoozed_until?: number | null;
  /** What an answer names (migration 11); absent from intake copies made before it. */
  revision?: number;
  /** JSON of the Origin (migration 13); absent from intake copies. */
  origin?: string | null;
  /** The agent token's name it was raised with (migration 12); absent from intake copies made before it. */
  raised_by?: string | null;
}

/** The columns a person sees or answers: a change of any of them is a new revision. */
const CONTENT = [
  'agent',
  'agent_instance',
  'project',
  'type',
  'priority',
  'title',
  'message',
  'cwd',
  'pid',
  'metadata',
  'actions',
];

/** The columns a search (`q`) looks in. */
const SEARCHED = ['title', 'message', 'agent', 'project'];

const COLUMNS =
  'id, key, agent, agent_instance, project, type, priority, title, message, cwd, pid, status, created_at, updated_at, resolved_at, metadata, actions, answer, snoozed_until, revision, origin, raised_by';

/** Where a paged list row holds seq: right after COLUMNS. */
const SEQ_INDEX = COLUMNS.split(', ').length;

/**
 * A notifications row (of the table or alias `table`) as one JSON object keyed by column name: the
 * shape in which the outbox intake's triggers keep a copy of it (migration 4).
 */
export const notificationRowJson = (table: string): string =>
  `json_object(${COLUMNS.split(', ')
    .map((column) => `'${column}', ${table}.${column}`)
    .join(', ')})`;

/** The identity of an unkeyed ARC request.created: a second insert with it returns the first row. */
export interface EventIdentity {
  senderId: string;
  eventId: string;
}

export interface UpsertOptions {
  /** Identity of an unkeyed ARC request.created. */
  event?: EventIdentity;
  /** Refresh the key's active notification, never insert (ARC request.updated). */
  activeOnly?: boolean;
  /**
   * The first reminder of a new notification, or of one whose update changes its type (its type's
   * policy, docs/attention.md); an update of the same type keeps the schedule it has.
   */
  remindAt?: number;
}

/** An active notification whose alert is due, with its schedule. */
export interface DueAlert {
  record: NotificationRecord;
  schedule: AlertSchedule;
  /** The due time the schedule was read with: a write compares it, so a change meanwhile wins. */
  dueAt: number;
}

export interface UpsertResult {
  record: NotificationRecord;
  created: boolean;
}

/**
 * All SQL of the notifications table. Its writes run inside a WriteQueue transaction in the broker; each
 * statement runs to completion, so a failure is thrown, never lost.
 */
export class NotificationStore {
  readonly #upsert;
  readonly #insertNew;
  readonly #insertPlain;
  readonly #byEvent;
  readonly #refreshActive;
  readonly #byId;
  readonly #setStatus;
  readonly #answer;
  readonly #activeCount;
  readonly #activeByType;
  readonly #activeUnchanged;
  readonly #prune;
  readonly #conditionByKey;
  readonly #activeByKey;
  readonly #snooze;
  readonly #alertsDue;
  readonly #alertsAt;
  readonly #nextAlert;
  readonly #reschedule;
  readonly #listStatements = new Map<string, Statement<[Record<string, string | number>], RowValues>>();

  constructor(private readonly db: Db) {
    // One statement: the partial unique index decides between insert and in-place update, so two
    // concurrent creates with one key can never both insert. Likewise an ARC event identity that exists
    // already matches its row, which is returned untouched (the no-op update only makes RETURNING see it).
    const values = `@id, @key, @agent, @agent_instance, @project, @type, @priority, @title, @message, @cwd, @pid,
              'active', @now, @now, NULL, @metadata, @actions, NULL, NULL, 1, @origin, @raised_by, @arc_sender_id, @arc_event_id, @remind_at`;
    // A refresh that changes anything the person sees or answers is a new revision (an answer names the
    // revision it answers); one that repeats the notification keeps it. SET reads the row as it was.
    const unchanged = CONTENT.map((column) => `${column} IS excluded.${column}`).join(' AND ');
    const onConflict = `
      ON CONFLICT (key) WHERE status = 'active' DO UPDATE SET
        revision = CASE WHEN ${unchanged} THEN revision ELSE revision + 1 END,
        agent = excluded.agent, agent_instance = excluded.agent_instance, project = excluded.project,
        type = excluded.type, priority = excluded.priority, title = excluded.title, message = excluded.message,
        cwd = excluded.cwd, pid = excluded.pid, metadata = excluded.metadata, actions = excluded.actions,
        origin = excluded.origin, updated_at = excluded.updated_at,
        remind_at = CASE WHEN type = excluded.type THEN remind_at ELSE excluded.remind_at END,
        reminders_sent = CASE WHEN type = excluded.type THEN reminders_sent ELSE 0 END
      ON CONFLICT (arc_sender_id, arc_event_id) WHERE arc_event_id IS NOT NULL DO UPDATE SET
        arc_event_id = excluded.arc_event_id
      RETURNING ${COLUMNS}`;
    this.#upsert = db.prepare<unknown[], NotificationRow>(`
      INSERT INTO notifications (${COLUMNS}, arc_sender_id, arc_event_id, remind_at) VALUES (${values}) ${onConflict}`);
    // Without a key only an ARC event identity seen before can conflict: a plain insert, no RETURNING
    // (the record is built from the values bound), is a third of the upsert's work on the create path.
    // Its values bound by position: better-sqlite3 looks every named parameter up on the object.
    const insertNew = `
      INSERT INTO notifications (${COLUMNS}, arc_sender_id, arc_event_id, remind_at)
      VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, NULL, ?, ?, NULL, NULL, 1, ?, ?, ?, ?, ?)`;
    this.#insertNew = db.prepare<NewNotificationRow>(
      `${insertNew} ON CONFLICT (arc_sender_id, arc_event_id) WHERE arc_event_id IS NOT NULL DO NOTHING`,
    );
    // Without an event identity nothing can conflict: no upsert clause for SQLite to plan around.
    this.#insertPlain = db.prepare<NewNotificationRow>(insertNew);
    this.#byEvent = db.prepare<[string, string], NotificationRow>(
      `SELECT ${COLUMNS} FROM notifications WHERE arc_sender_id = ? AND arc_event_id = ?`,
    );
    // The same upsert, offered only while the key has an active row: it can refresh, never insert.
    this.#refreshActive = db.prepare<unknown[], NotificationRow>(`
      INSERT INTO notifications (${COLUMNS}, arc_sender_id, arc_event_id, remind_at) SELECT ${values}
      WHERE EXISTS (SELECT 1 FROM notifications WHERE key = @key AND status = 'active') ${onConflict}`);
    this.#byId = db.prepare<[string], NotificationRow>(`SELECT ${COLUMNS} FROM notifications WHERE id = ?`);
    // A reopened notification asks again: the answer of its last lifecycle goes, its reminders start
    // over, and it is a new revision, so an answer given to the last lifecycle never answers this one.
    this.#setStatus = db.prepare<unknown[], NotificationRow>(`
      UPDATE notifications SET status = @status, updated_at = @now, resolved_at = @resolvedAt,
        answer = CASE WHEN @status = 'active' THEN NULL ELSE answer END,
        revision = CASE WHEN @status = 'active' AND status <> 'active' THEN revision + 1 ELSE revision END,
        snoozed_until = NULL, remind_at = @remindAt, reminders_sent = 0
      WHERE id = @id RETURNING ${COLUMNS}`);
    // Only an active, unanswered notification takes an answer, so of two racing answers one wins.
    this.#answer = db.prepare<unknown[], NotificationRow>(`
      UPDATE notifications SET status = 'resolved', updated_at = @now, resolved_at = @now, answer = @answer,
        snoozed_until = NULL, remind_at = NULL
      WHERE id = @id AND status = 'active' AND answer IS NULL RETURNING ${COLUMNS}`);
    this.#snooze = db.prepare<unknown[], NotificationRow>(`
      UPDATE notifications SET snoozed_until = @until WHERE id = @id AND status = 'active' RETURNING ${COLUMNS}`);
    const due = 'coalesce(snoozed_until, remind_at)';
    this.#alertsDue = db.prepare<[number, number], NotificationRow & AlertRow>(`
      SELECT ${COLUMNS}, remind_at, reminders_sent, ${due} AS due_at FROM notifications
      INDEXED BY notifications_alert_due WHERE status = 'active' AND ${due} <= ? ORDER BY ${due} LIMIT ?`);
    this.#alertsAt = db.prepare<[number], NotificationRow & AlertRow>(`
      SELECT ${COLUMNS}, remind_at, reminders_sent, ${due} AS due_at FROM notifications
      INDEXED BY notifications_alert_due WHERE status = 'active' AND ${due} = ?`);
    this.#nextAlert = db.prepare<[], { at: number | null }>(`
      SELECT min(${due}) AS at FROM notifications INDEXED BY notifications_alert_due WHERE status = 'active'`);
    this.#reschedule = db.prepare<unknown[], NotificationRow>(`
      UPDATE notifications SET snoozed_until = @snoozedUntil, remind_at = @remindAt, reminders_sent = @sent
      WHERE id = @id AND status = 'active' AND ${due} = @dueAt RETURNING ${COLUMNS}`);
    this.#activeCount = db.prepare<[], { count: number }>(
      `SELECT count(*) AS count FROM notifications WHERE status = 'active'`,
    );
    this.#activeByType = db.prepare<[], { type: string; count: number }>(
      `SELECT type, count(*) AS count FROM notifications WHERE status = 'active' GROUP BY type`,
    );
    this.#activeUnchanged = db.prepare<[number, number], { id: string; type: string; updatedAt: number }>(
      `SELECT id, type, updated_at AS updatedAt FROM notifications WHERE status = 'active' AND updated_at <= ?
       ORDER BY updated_at LIMIT ?`,
    );
    this.#prune = db.prepare<[number]>(
      `DELETE FROM notifications WHERE status <> 'active' AND updated_at < ?`,
    );
    this.#activeByKey = db.prepare<[string], NotificationRow>(
      `SELECT ${COLUMNS} FROM notifications INDEXED BY notifications_active_key WHERE key = ? AND status = 'active'`,
    );
    this.#conditionByKey = db.prepare<[string], NotificationRow>(`
      SELECT ${COLUMNS} FROM notifications WHERE key = ?
      ORDER BY status = 'active' DESC, seq DESC LIMIT 1`);
  }

  /** The active notification with this key: one lookup in the unique index of active keys. */
  activeByKey(key: string): NotificationRecord | undefined {
    const row = this.#activeByKey.get(key);
    return row && toRecord(row);
  }

  /** The active notification with this key, else the most recently created one with it. */
  conditionByKey(key: string): NotificationRecord | undefined {
    const row = this.#conditionByKey.get(key);
    return row && toRecord(row);
  }

  /**
   * Inserts a new active notification, or refreshes the active one with the same key in place. With an
   * event identity that was stored before, nothing changes and the original notification is returned.
   * With `activeOnly`, only the refresh can happen: undefined when the key has no active notification.
   */
  upsert(
    id: string,
    draft: NotificationDraft,
    now: number,
    options?: { event?: EventIdentity },
  ): UpsertResult;
  upsert(id: string, draft: NotificationDraft, now: number, options: UpsertOptions): UpsertResult | undefined;
  upsert(
    id: string,
    draft: NotificationDraft,
    now: number,
    options: UpsertOptions = {},
  ): UpsertResult | undefined {
    if (draft.key === undefined && !options.activeOnly) {
      // Without a key only an ARC event identity stored before can keep it from inserting; the new
      // record is built from the draft, never read back.
      const { event } = options;
      const insert = event === undefined ? this.#insertPlain : this.#insertNew;
      if (insert.run(...newNotificationRow(id, draft, now, options)).changes === 1) {
        return { record: newRecord(id, draft, now), created: true };
      }
      return { record: toRecord(this.#byEvent.get(event!.senderId, event!.eventId)!), created: false };
    }
    const values: InsertValues = {
      id,
      key: draft.key ?? null,
      agent: draft.agent,
      agent_instance: draft.agentInstance ?? null,
      project: draft.project ?? null,
      type: draft.type,
      priority: draft.priority,
      title: draft.title,
      message: draft.message,
      cwd: draft.cwd ?? null,
      pid: draft.pid ?? null,
      metadata: draft.metadata === undefined ? null : JSON.stringify(draft.metadata),
      actions: draft.actions === undefined ? null : JSON.stringify(draft.actions),
      origin: draft.origin === undefined ? null : JSON.stringify(draft.origin),
      arc_sender_id: options.event?.senderId ?? null,
      arc_event_id: options.event?.eventId ?? null,
      remind_at: options.remindAt ?? null,
      raised_by: draft.raisedBy ?? null,
      now,
    };
    const statement = options.activeOnly ? this.#refreshActive : this.#upsert;
    // all(), never get(): get() stops after the first RETURNING row, so the statement never completes
    // and an error SQLite reports at completion (SQLITE_FULL, an I/O error) would go unseen.
    const [row] = statement.all(values);
    return row && { record: toRecord(row), created: row.id === id };
  }

  get(id: string): NotificationRecord | undefined {
    const row = this.#byId.get(id);
    return row && toRecord(row);
  }

  /** Throws ActiveKeyTakenError when reopening would give a key a second active notification. */
  setStatus(id: string, status: Status, now: number, remindAt?: number): NotificationRecord | undefined {
    try {
      const [row] = this.#setStatus.all({
        id,
        status,
        now,
        resolvedAt: status === 'resolved' ? now : null,
        remindAt: status === 'active' ? (remindAt ?? null) : null,
      });
      return row && toRecord(row);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new ActiveKeyTakenError();
      throw error;
    }
  }

  /** Records the answer and resolves; undefined unless the notification is active and unanswered. */
  answer(id: string, answer: Answer): NotificationRecord | undefined {
    const [row] = this.#answer.all({ id, now: answer.answeredAt, answer: JSON.stringify(answer) });
    return row && toRecord(row);
  }

  /** Silences an active notification until `until`; undefined unless it is active. */
  snooze(id: string, until: number): NotificationRecord | undefined {
    const [row] = this.#snooze.all({ id, until });
    return row && toRecord(row);
  }

  /** Active notifications whose snooze ended or whose reminder is due at `now`, earliest first. */
  alertsDue(now: number, limit: number): DueAlert[] {
    return this.#alertsDue.all(now, limit).map(dueAlertOf);
  }

  /** Active notifications whose snooze ends or whose reminder is due exactly at `at` (the end of quiet hours). */
  alertsAt(at: number): DueAlert[] {
    return this.#alertsAt.all(at).map(dueAlertOf);
  }

  /** The earliest time an active notification alerts again; undefined when none will. */
  nextAlertAt(): number | undefined {
    return this.#nextAlert.get()?.at ?? undefined;
  }

  /**
   * Writes a due alert's next schedule, only if the notification is still active and its schedule is
   * the one read (`dueAt`): a snooze or a change of status meanwhile wins. Undefined when it lost.
   */
  reschedule(id: string, dueAt: number, schedule: AlertSchedule): NotificationRecord | undefined {
    const [row] = this.#reschedule.all({
      id,
      dueAt,
      snoozedUntil: schedule.snoozedUntil ?? null,
      remindAt: schedule.remindAt ?? null,
      sent: schedule.remindersSent,
    });
    return row && toRecord(row);
  }

  list(filter: ListFilter): NotificationRecord[] {
    return this.page(filter).records;
  }

  /**
   * Newest first, as list; with `paged`, also the position to continue from (`before` of the next
   * page) when more rows match. Every page is a walk down the primary key (or a filter's index, which
   * ends in seq) from its cursor: as fast on the last page of 100k rows as on the first.
   */
  page(filter: ListFilter): { records: NotificationRecord[]; nextBefore?: number } {
    const where: string[] = [];
    // One row more than the page tells whether another page follows.
    const params: Record<string, string | number> = { limit: filter.limit + (filter.paged ? 1 : 0) };
    for (const column of ['status', 'type', 'project', 'agent', 'key'] as const) {
      const value = filter[column];
      if (value !== undefined) {
        where.push(`${column} = @${column}`);
        params[column] = value;
      }
    }
    if (filter.raisedBy !== undefined) {
      where.push('raised_by = @raisedBy');
      params['raisedBy'] = filter.raisedBy;
    }
    filter.words?.forEach((word, index) => {
      const name = `word${index}`;
      where.push(`(${SEARCHED.map((column) => `${column} LIKE @${name} ESCAPE '\\'`).join(' OR ')})`);
      params[name] = `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    });
    if (filter.before !== undefined) {
      where.push('seq < @before');
      params['before'] = filter.before;
    }
    const clause = where.join(' AND ');
    // Only a paged list needs each row's position (seq), for the next page's cursor.
    const columns = filter.paged ? `${COLUMNS}, seq` : COLUMNS;
    const sql = `SELECT ${columns} FROM notifications ${clause && `WHERE ${clause}`} ORDER BY seq DESC LIMIT @limit`;
    let statement = this.#listStatements.get(sql);
    if (!statement) {
      // Raw mode: better-sqlite3 builds row objects slowly; arrays halve the cost of a 500-row page.
      statement = this.db.prepare<[Record<string, string | number>], RowValues>(sql).raw(true);
      this.#listStatements.set(sql, statement);
    }
    const rows = statement.all(params);
    const more = filter.paged === true && rows.length > filter.limit;
    if (more) rows.length = filter.limit;
    const records = rows.map((values) => toRecord(rowOf(values)));
    return more ? { records, nextBefore: rows.at(-1)![SEQ_INDEX] as number } : { records };
  }

  countActive(): number {
    return this.#activeCount.get()!.count;
  }

  /** Active notifications unchanged since `cutoff` (inclusive), oldest first: what may resolve itself. */
  activeUnchangedSince(cutoff: number, limit: number): { id: string; type: string; updatedAt: number }[] {
    return this.#activeUnchanged.all(cutoff, limit);
  }

  /** How many notifications of each type are active. */
  activeCountByType(): { type: string; count: number }[] {
    return this.#activeByType.all();
  }

  /** Deletes dismissed and resolved notifications whose last change is older than the cutoff. */
  pruneTerminalBefore(cutoff: number): number {
    return this.#prune.run(cutoff).changes;
  }
}

/** The parameters of the insert and the upserts: the row's own columns as a new row has them, and more. */
type InsertValues = Pick<
  NotificationRow,
  | 'id'
  | 'key'
  | 'agent'
  | 'agent_instance'
  | 'project'
  | 'type'
  | 'priority'
  | 'title'
  | 'message'
  | 'cwd'
  | 'pid'
  | 'metadata'
  | 'actions'
> & {
  origin: string | null;
  raised_by: string | null;
  arc_sender_id: string | null;
  arc_event_id: string | null;
  remind_at: number | null;
  now: number;
};

interface AlertRow {
  remind_at: number | null;
  reminders_sent: number;
  due_at: number;
}

type RowValues = NotificationRow[keyof NotificationRow][];

/** A raw-mode row back into named columns, in the order of COLUMNS. */
function rowOf(v: RowValues): NotificationRow {
  return {
    id: v[0],
    key: v[1],
    agent: v[2],
    agent_instance: v[3],
    project: v[4],
    type: v[5],
    priority: v[6],
    title: v[7],
    message: v[8],
    cwd: v[9],
    pid: v[10],
    status: v[11],
    created_at: v[12],
    updated_at: v[13],
    resolved_at: v[14],
    metadata: v[15],
    actions: v[16],
    answer: v[17],
    snoozed_until: v[18],
    revision: v[19],
    origin: v[20],
    raised_by: v[21],
  } as NotificationRow;
}

/** A notifications row as the domain's record. */
export function toRecord(row: NotificationRow): NotificationRecord {
  const record: NotificationRecord = {
    id: row.id,
    agent: row.agent,
    type: row.type,
    priority: row.priority,
    title: row.title,
    message: row.message,
    status: row.status,
    revision: row.revision ?? 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.key !== null) record.key = row.key;
  if (row.agent_instance !== null) record.agentInstance = row.agent_instance;
  if (row.project !== null) record.project = row.project;
  if (row.cwd !== null) record.cwd = row.cwd;
  if (row.pid !== null) record.pid = row.pid;
  if (row.resolved_at !== null) record.resolvedAt = row.resolved_at;
  if (row.metadata !== null) record.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  // Snapshots the outbox intake kept before migration 5 have neither field.
  if (row.actions != null) record.actions = JSON.parse(row.actions) as Action[];
  if (row.answer != null) record.answer = JSON.parse(row.answer) as Answer;
  if (row.snoozed_until != null) record.snoozedUntil = row.snoozed_until;
  if (row.origin != null) record.origin = JSON.parse(row.origin) as Origin;
  if (row.raised_by != null) record.raisedBy = row.raised_by;
  return record;
}

function dueAlertOf(row: NotificationRow & AlertRow): DueAlert {
  return {
    record: toRecord(row),
    dueAt: row.due_at,
    schedule: {
      ...(row.snoozed_until != null && { snoozedUntil: row.snoozed_until }),
      ...(row.remind_at !== null && { remindAt: row.remind_at }),
      remindersSent: row.reminders_sent,
    },
  };
}

/** The parameters of the insert of a new notification without a key, in the statement's order. */
type NewNotificationRow = [
  id: string,
  agent: string,
  agentInstance: string | null,
  project: string | null,
  type: string,
  priority: string,
  title: string,
  message: string,
  cwd: string | null,
  pid: number | null,
  createdAt: number,
  updatedAt: number,
  metadata: string | null,
  actions: string | null,
  origin: string | null,
  raisedBy: string | null,
  arcSenderId: string | null,
  arcEventId: string | null,
  remindAt: number | null,
];

/** A new notification without a key as the insert's parameters, bound by position. */
function newNotificationRow(
  id: string,
  draft: NotificationDraft,
  now: number,
  options: { event?: EventIdentity; remindAt?: number } = {},
): NewNotificationRow {
  return [
    id,
    draft.agent,
    draft.agentInstance ?? null,
    draft.project ?? null,
    draft.type,
    draft.priority,
    draft.title,
    draft.message,
    draft.cwd ?? null,
    draft.pid ?? null,
    now,
    now,
    draft.metadata === undefined ? null : JSON.stringify(draft.metadata),
    draft.actions === undefined ? null : JSON.stringify(draft.actions),
    draft.origin === undefined ? null : JSON.stringify(draft.origin),
    draft.raisedBy ?? null,
    options.event?.senderId ?? null,
    options.event?.eventId ?? null,
    options.remindAt ?? null,
  ];
}
