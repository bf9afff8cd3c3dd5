/**
 * What the clients were told during the run: every change a call acknowledged, and every prompt
 * tried (acknowledged or not, each with its own marker). The ledger holds the database to it.
 */

export type Actor = "owner" | "agent";

export interface PromptRecord {
  /** Unique to this attempt: it is in the prompt, the reply and the line its turn writes. */
  readonly marker: string;
  readonly by: Actor;
  readonly what: "create" | "prompt" | "task";
  readonly at: number;
  /** The session, when known before the call (a prompt to an existing session). */
  session: string | null;
  /** The prompt's message id: set when the call was acknowledged. */
  messageId: string | null;
  /** The last status a client was told for it (send/create/wait), if any. */
  told: string | null;
  /** The client's error when the call that would have sent it failed. */
  failure: string | null;
}

export interface ScheduleRecord {
  readonly id: string;
  readonly marker: string;
  readonly session: string;
  /** The conversation whose agent made it (the session itself when it schedules its own turn). */
  readonly by: string;
  readonly at: string | null;
  readonly everyMinutes: number | null;
  readonly madeAt: number;
  unscheduledAt: number | null;
}

export interface SubscriptionRecord {
  readonly id: string;
  readonly watcher: string;
  readonly sessions: readonly string[];
  readonly at: number;
}

export interface QuestionRecord {
  readonly id: string;
  readonly asker: string;
  readonly marker: string;
  readonly at: number;
}

export interface AnswerRecord {
  readonly questionId: string;
  readonly choice: string;
  readonly at: number;
}

export interface TaskRecord {
  readonly host: string;
  readonly marker: string;
  readonly taskId: string;
  readonly startedAt: number;
  /** Each read_task_output: who served it and what it gave. */
  readonly reads: {
    readonly at: number;
    readonly servedBy: string | null;
    readonly ok: boolean;
    /** The HTTP status; 0 when no response came. */
    readonly http: number;
    readonly code: string | null;
    readonly ticks: number;
    readonly status: string | null;
    readonly note: string | null;
  }[];
  /** The acknowledged stop, if any. */
  stop: { readonly at: number; readonly servedBy: string | null; readonly stopRequested: boolean } | null;
}

export interface SendWaitRecord {
  readonly marker: string;
  readonly start: number;
  readonly end: number;
  /** The last status the client was told: done, error, … or `gave up` past its deadline. */
  readonly status: string;
  /** Calls it took (the send and each wait, retries included). */
  readonly calls: number;
  /** How long its turn slept on purpose (`!sleep`). */
  readonly sleepMs: number;
}

export class Journal {
  readonly sessions = new Map<string, { readonly by: Actor; readonly at: number }>();
  readonly prompts: PromptRecord[] = [];
  readonly schedules: ScheduleRecord[] = [];
  readonly subscriptions: SubscriptionRecord[] = [];
  readonly questions: QuestionRecord[] = [];
  readonly answers: AnswerRecord[] = [];
  /** Approval cards the owner allowed (acknowledged). */
  readonly cards: { readonly id: string; readonly kind: string; readonly at: number }[] = [];
  /** Messages the owner wrote into agent conversations (acknowledged). */
  readonly ownerNotes: { readonly session: string; readonly messageId: string }[] = [];
  readonly tasks: TaskRecord[] = [];
  readonly sendWaits: SendWaitRecord[] = [];

  prompt(record: Omit<PromptRecord, "messageId" | "told" | "failure">): PromptRecord {
    const full: PromptRecord = { ...record, messageId: null, told: null, failure: null };
    this.prompts.push(full);
    return full;
  }
}
