import { readFile } from "node:fs/promises";
import type { BenchDatabase } from "../lib/bench-database";

/** The rows the ledger holds the journal to, read once the quiet period is over. */
export interface Rows {
  readonly sessions: ReadonlyMap<string, { readonly archivedAt: number | null }>;
  /** User messages and schedule firings' messages (the prompts), with their turns. */
  readonly prompts: readonly PromptRow[];
  readonly turns: ReadonlyMap<string, TurnRow>;
  readonly tasks: ReadonlyMap<string, TaskRow>;
  readonly schedules: ReadonlyMap<string, ScheduleRow>;
  readonly firings: readonly FiringRow[];
  readonly subscriptions: ReadonlyMap<string, SubscriptionRow>;
  readonly events: readonly EventRow[];
  readonly deliveries: readonly DeliveryRow[];
  /** Relay messages (event lines) by the session they are in. */
  readonly relayMessages: ReadonlyMap<string, readonly { readonly id: string; readonly text: string }[]>;
  readonly questions: ReadonlyMap<string, QuestionRow>;
  readonly cards: ReadonlyMap<string, { readonly status: string; readonly kind: string }>;
  readonly messageIds: ReadonlySet<string>;
  /** Runner leases: whose pid each names (a retired lease keeps its row). */
  readonly leases: ReadonlyMap<string, { readonly pid: number | null }>;
  readonly now: number;
}

export interface PromptRow {
  readonly id: string;
  readonly session: string;
  readonly text: string;
  readonly createdAt: number;
  readonly turn: string | null;
}

export interface TurnRow {
  readonly id: string;
  readonly session: string;
  readonly status: string;
  readonly error: string | null;
  readonly reply: string | null;
  readonly prompt: string | null;
  readonly lease: string | null;
  readonly startedAt: number | null;
  readonly endedAt: number | null;
}

export interface TaskRow {
  readonly id: string;
  readonly session: string;
  readonly turn: string | null;
  readonly name: string | null;
  readonly status: string;
  readonly runner: string | null;
  readonly startedAt: number;
  readonly endedAt: number | null;
}

export interface ScheduleRow {
  readonly id: string;
  readonly session: string;
  readonly at: number | null;
  readonly everyMinutes: number | null;
  readonly anchor: number;
  readonly createdAt: number;
  readonly endedAt: number | null;
  readonly endReason: string | null;
  readonly heldSince: number | null;
}

export interface FiringRow {
  readonly schedule: string;
  readonly slot: number;
  readonly status: string;
  readonly turn: string | null;
}

export interface SubscriptionRow {
  readonly id: string;
  readonly watcher: string;
  readonly sessions: readonly string[];
  readonly events: readonly string[] | null;
  readonly createdAt: number;
  readonly endedAt: number | null;
}

export interface EventRow {
  readonly id: string;
  readonly seq: number;
  readonly kind: string;
  readonly session: string | null;
  readonly at: number;
}

export interface DeliveryRow {
  readonly watcher: string;
  readonly subscription: string | null;
  readonly event: string;
  readonly status: string;
  readonly reason: string;
  readonly due: number;
  readonly message: string | null;
}

export interface QuestionRow {
  readonly status: string;
  readonly answer: string | null;
  readonly choices: readonly string[] | null;
  readonly asker: string;
}

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

export async function readRows(db: BenchDatabase): Promise<Rows> {
  const now = Date.now();
  const byId = <T extends { id: string }>(rows: readonly T[]) => new Map(rows.map((row) => [row.id, row]));
  const sessions = await db.query<{ id: string; archivedAt: number | null }>(
    `select id, ${ms("archived_at")} as "archivedAt" from sessions`,
  );
  const prompts = await db.query<PromptRow>(
    `select m.id, m.session_id as session, m.text, ${ms("m.created_at")} as "createdAt", t.id as turn
     from messages m left join turns t on t.prompt_message_id = m.id
     where m.role = 'user' or (m.role = 'relay' and m.text like '[relay schedule %')`,
  );
  const turns = await db.query<TurnRow>(
    `select id, session_id as session, status, error, reply, prompt_message_id as prompt,
            runner_lease as lease, ${ms("started_at")} as "startedAt", ${ms("ended_at")} as "endedAt"
     from turns`,
  );
  const tasks = await db.query<TaskRow>(
    `select id, session_id as session, turn_id as turn, name, status, runner,
            ${ms("started_at")} as "startedAt", ${ms("ended_at")} as "endedAt"
     from tasks`,
  );
  const schedules = await db.query<ScheduleRow>(
    `select id, session_id as session, ${ms("at")} as at, every_minutes as "everyMinutes",
            ${ms("anchor")} as anchor, ${ms("created_at")} as "createdAt", ${ms("ended_at")} as "endedAt",
            end_reason as "endReason", ${ms("held_since")} as "heldSince"
     from schedules`,
  );
  const firings = await db.query<FiringRow>(
    `select schedule_id as schedule, ${ms("slot")} as slot, status, turn_id as turn from schedule_firings`,
  );
  const subscriptions = await db.query<SubscriptionRow>(
    `select id, watcher, sessions, events, ${ms("created_at")} as "createdAt", ${ms("ended_at")} as "endedAt"
     from subscriptions`,
  );
  const events = await db.query<EventRow>(
    `select id, seq::float8 as seq, kind, session_id as session, ${ms("at")} as at from events order by seq`,
  );
  const deliveries = await db.query<DeliveryRow>(
    `select watcher, subscription_id as subscription, event_id as event, status, reason,
            ${ms("due_at")} as due, message_id as message
     from deliveries`,
  );
  const relayMessages = new Map<string, { id: string; text: string }[]>();
  for (const row of await db.query<{ id: string; session: string; text: string }>(
    "select id, session_id as session, text from messages where role = 'relay' and text like '[relay event%'",
  )) {
    const list = relayMessages.get(row.session) ?? [];
    list.push({ id: row.id, text: row.text });
    relayMessages.set(row.session, list);
  }
  const questions = await db.query<QuestionRow & { id: string }>(
    "select id, status, answer, choices, asking_session as asker from questions",
  );
  const cards = await db.query<{ id: string; status: string; kind: string }>(
    "select id, status, kind from approval_cards",
  );
  const messageIds = await db.query<{ id: string }>("select id from messages");
  const leases = await db.query<{ name: string; pid: number | null }>(
    "select name, pid from leases where name like 'runner:%'",
  );
  return {
    sessions: byId(sessions),
    prompts,
    turns: byId(turns),
    tasks: byId(tasks),
    schedules: byId(schedules),
    firings,
    subscriptions: byId(subscriptions),
    events,
    deliveries,
    relayMessages,
    questions: byId(questions),
    cards: byId(cards),
    messageIds: new Set(messageIds.map((row) => row.id)),
    leases: new Map(leases.map((row) => [row.name, { pid: row.pid }])),
    now,
  };
}

/** A line of the marks file: the marker of the turn that wrote it and the id of its task. */
export interface MarkLine {
  readonly marker: string;
  readonly task: string;
}

export async function readMarks(file: string): Promise<MarkLine[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [marker = "", task = ""] = line.trim().split(/\s+/);
      return { marker, task };
    });
}
