import { type IdGenerator, toIso as iso } from "@oar/core";
import { type OutboxEvent, type QuestionKind, TURN_END_TEXT_MAX } from "@oar/schema";
import type { EngineStores } from "../ports/engine-stores";
import type { InboxQuestionRecord } from "../ports/question-store";
import type { SessionRecord, TurnRecord } from "../ports/session-store";
import type { TaskRecord } from "../ports/task-store";

/**
 * The lifecycle events (DESIGN §9), each appended by the caller inside the transaction of the
 * change it records: the change and its event land together or not at all.
 *
 * OUTBOX_LAST: an append locks the outbox's head until the commit (seqs in commit order), so a
 * change appends its events after its other writes. A change that took the head and then a
 * session's row deadlocked on Postgres with a turn's end, which takes them the other way round;
 * the stores run such a transaction again, but only after Postgres's deadlock check (a second).
 */
export interface OutboxWriter {
  readonly stores: Pick<EngineStores, "events" | "questions" | "schedules" | "subscriptions">;
  readonly ids: IdGenerator;
  /** This relay's name: a prompt's provenance names it when one of its own agents sent it. */
  readonly relayName: string;
}

async function append(
  writer: OutboxWriter,
  input: { readonly id: string; readonly sessionId: string | null; readonly event: OutboxEvent },
): Promise<void> {
  await writer.stores.events.appendEvent({
    id: input.id,
    sessionId: input.sessionId,
    event: input.event,
    at: Date.parse(input.event.at),
  });
}

/** What every event of a session says of itself: its id, when, and the session with its title. */
function about(id: string, session: Pick<SessionRecord, "id" | "title">, at: number) {
  return { id, at: iso(at), session: session.id, title: session.title };
}

/** The fields of a blocking question's events (GAP-13). */
function aboutQuestion(
  id: string,
  question: { readonly id: string; readonly text: string },
  session: Pick<SessionRecord, "id" | "title">,
  at: number,
  kind: QuestionKind,
) {
  return {
    ...about(id, session, at),
    question_id: question.id,
    questionKind: kind,
    text: question.text,
  };
}

export async function recordTurnStarted(
  writer: OutboxWriter,
  turn: TurnRecord,
  session: Pick<SessionRecord, "id" | "title">,
  at: number,
): Promise<void> {
  const id = `${turn.id}.started`;
  await append(writer, {
    id,
    sessionId: session.id,
    event: { kind: "turn_started", ...about(id, session, at), turn_id: turn.id },
  });
}

/** The conversation of this relay whose agent prompted the turn, if one did (R-ECHO-01). */
function promptedBy(writer: OutboxWriter, turn: TurnRecord): string | undefined {
  const from = turn.origin.provenance;
  return turn.origin.kind === "agent" && from !== undefined && from.relay === writer.relayName
    ? from.session
    : undefined;
}

/** turn_end with its status and the reply's first 200 characters, and `error` for a turn that failed (GAP-13). */
export async function recordTurnEnded(writer: OutboxWriter, turn: TurnRecord, title: string): Promise<void> {
  const at = turn.endedAt ?? 0;
  const base = { at: iso(at), session: turn.sessionId, title };
  const id = `${turn.id}.end`;
  const prompter = promptedBy(writer, turn);
  await append(writer, {
    id,
    sessionId: turn.sessionId,
    event: {
      ...base,
      id,
      kind: "turn_end",
      status: turn.status === "queued" || turn.status === "running" ? "error" : turn.status,
      turn_id: turn.id,
      text: (turn.reply ?? turn.error ?? "").slice(0, TURN_END_TEXT_MAX),
      ...(prompter === undefined ? {} : { prompted_by: prompter }),
    },
  });
  if (turn.status === "error") {
    const errorId = `${turn.id}.error`;
    await append(writer, {
      id: errorId,
      sessionId: turn.sessionId,
      event: { ...base, id: errorId, kind: "error", message: turn.error ?? "The turn ended with an error." },
    });
  }
}

/** A session archived or deleted: its event, and the subscriptions it leaves (R-SLIFE-02 (b), GAP-17). */
export async function recordSessionGone(
  writer: OutboxWriter,
  session: Pick<SessionRecord, "id" | "title">,
  how: "archived" | "deleted",
  at: number,
): Promise<void> {
  const id = writer.ids.next("event");
  await append(writer, {
    id,
    sessionId: session.id,
    event: { kind: how === "archived" ? "session_archived" : "session_deleted", ...about(id, session, at) },
  });
  await writer.stores.subscriptions.forgetSession({ sessionId: session.id, at });
  // R-SCHEND-01: schedules firing in it or created by it end; R-WDR-03: its questions end, silently.
  await writer.stores.schedules.endSchedulesOf({ sessionIds: [session.id], reason: how, at });
  await writer.stores.questions.endInboxQuestionsOf({ sessionIds: [session.id], at });
}

/** A question was asked about `session`: a blocking card (`ask_user`) or, with `kind` "ask", an Inbox question. */
export async function recordQuestionAsked(
  writer: OutboxWriter,
  question: { readonly id: string; readonly text: string; readonly options: readonly string[] },
  session: Pick<SessionRecord, "id" | "title">,
  at: number,
  kind: QuestionKind = "ask_user",
): Promise<void> {
  const id = `${question.id}.asked`;
  await append(writer, {
    id,
    sessionId: session.id,
    event: {
      kind: "question_asked",
      ...aboutQuestion(id, question, session, at, kind),
      ...(question.options.length === 0 ? {} : { options: [...question.options] }),
    },
  });
}

/** How an answered question's event goes on besides its answer: who asked, where it is kept. */
interface AnswerRouting {
  readonly kind: QuestionKind;
  readonly dismissed: boolean;
  /** The asking conversation of this relay, which hears it with no subscription (R-QANS-02). */
  readonly askedBy?: string;
  /** A copy of a question kept on a paired relay: the event is about that relay's session. */
  readonly keptOn?: string;
}

export async function recordQuestionAnswered(
  writer: OutboxWriter,
  question: {
    readonly id: string;
    readonly text: string;
    readonly answer: string | null;
    readonly choice: string | null;
  },
  session: Pick<SessionRecord, "id" | "title">,
  at: number,
  via: string,
  routing: AnswerRouting = { kind: "ask_user", dismissed: false },
): Promise<void> {
  const id = `${question.id}.answered`;
  await append(writer, {
    id,
    sessionId: session.id,
    event: {
      kind: "question_answered",
      ...aboutQuestion(id, question, session, at, routing.kind),
      answer: question.answer,
      choice: question.choice,
      dismissed: routing.dismissed,
      via,
      ...(routing.askedBy === undefined ? {} : { asked_by: routing.askedBy }),
      ...(routing.keptOn === undefined ? {} : { relay: routing.keptOn }),
    },
  });
}

/** A non-blocking question (`ask`) was asked about `session`: its watchers may hear it (GAP-13). */
export function recordInboxAsked(
  writer: OutboxWriter,
  question: InboxQuestionRecord,
  session: Pick<SessionRecord, "id" | "title">,
): Promise<void> {
  return recordQuestionAsked(writer, question, session, question.createdAt, "ask");
}

/**
 * The owner answered or dismissed a non-blocking question: `question_answered` for the asking
 * conversation and the session concerned, with no subscription (R-QANS-01/02, R-QCHK-04).
 */
export function recordInboxAnswered(
  writer: OutboxWriter,
  question: InboxQuestionRecord,
  session: Pick<SessionRecord, "id" | "title">,
): Promise<void> {
  return recordQuestionAnswered(
    writer,
    question,
    session,
    question.closedAt ?? question.createdAt,
    question.via ?? writer.relayName,
    {
      kind: "ask",
      dismissed: question.status === "dismissed",
      ...(question.askingRelay === null ? { askedBy: question.askingSession } : {}),
      ...(question.keptOnRelay === null ? {} : { keptOn: question.keptOnRelay }),
    },
  );
}

/** What the agent's view and the events call a task's kind (R-RTO-06: `local_bash`). */
export function taskType(kind: TaskRecord["kind"]): string {
  return kind === "shell" ? "local_bash" : kind === "subagent" ? "local_agent" : "monitor";
}

export async function recordTaskStarted(
  writer: OutboxWriter,
  task: TaskRecord,
  session: Pick<SessionRecord, "id" | "title">,
): Promise<void> {
  const id = `${task.id}.started`;
  await append(writer, {
    id,
    sessionId: session.id,
    event: {
      kind: "task_started",
      ...about(id, session, task.startedAt),
      task_id: task.id,
      description: task.description,
      type: taskType(task.kind),
    },
  });
}

/**
 * A task's end: `task_failed` (a non-zero exit, a lost process), else `subagent_finished` for a
 * background agent and `task_finished` for a command. A stopped task writes nothing: whoever stopped it knows.
 */
export async function recordTaskEnded(
  writer: OutboxWriter,
  task: TaskRecord,
  session: Pick<SessionRecord, "id" | "title">,
): Promise<void> {
  if (task.status === "stopped" || task.status === "running") {
    return;
  }
  const id = `${task.id}.end`;
  const kind =
    task.status === "failed"
      ? "task_failed"
      : task.kind === "subagent"
        ? "subagent_finished"
        : "task_finished";
  await append(writer, {
    id,
    sessionId: session.id,
    event: {
      kind,
      ...about(id, session, task.endedAt ?? task.startedAt),
      task_id: task.id,
      description: task.description,
      exitCode: task.exitCode,
    },
  });
}

/** An approval card raised in `session`: the owner's stream shows it the moment it is asked. */
export async function recordCardRaised(
  writer: OutboxWriter,
  card: { readonly id: string; readonly action: string; readonly targetRelay: string },
  session: Pick<SessionRecord, "id" | "title">,
  at: number,
): Promise<void> {
  const id = `${card.id}.raised`;
  await append(writer, {
    id,
    sessionId: session.id,
    event: {
      kind: "card_raised",
      ...about(id, session, at),
      card_id: card.id,
      action: card.action,
      target_relay: card.targetRelay,
    },
  });
}

/** The owner answered an approval card: every console open on this relay drops it. */
export async function recordCardAnswered(
  writer: OutboxWriter,
  card: { readonly id: string },
  status: "allowed" | "denied",
  session: Pick<SessionRecord, "id" | "title">,
  at: number,
): Promise<void> {
  const id = `${card.id}.answered`;
  await append(writer, {
    id,
    sessionId: session.id,
    event: { kind: "card_answered", ...about(id, session, at), card_id: card.id, status },
  });
}
