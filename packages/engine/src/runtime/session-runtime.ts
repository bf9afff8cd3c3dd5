import type { TurnWaitStatus } from "@oar/schema";
import type { ClusterReply, ClusterRequest } from "../ports/cluster-link";
import type { EngineStores } from "../ports/engine-stores";
import type { QuestionAnswer } from "../ports/provider";
import type { Provenance, TurnOrigin, TurnRecord } from "../ports/session-store";
import type { TaskRecord } from "../ports/task-store";
import type { OutputRead } from "./cluster";

/** Where a turn stands, in the vocabulary of send/create_session/wait results (GAP-10). */

export interface PendingQuestionView {
  readonly id: string;
  readonly kind: "ask" | "ask_user";
  readonly text: string;
  readonly options: readonly string[];
  readonly createdAt: number;
}

export interface TurnSnapshot {
  readonly turnId: string;
  readonly sessionId: string;
  /** The prompt message's id: what send returns as `message_id` and wait takes back. */
  readonly messageId: string;
  readonly status: TurnWaitStatus;
  /** The whole reply when done; the text so far while running. */
  readonly text: string;
  readonly model: string;
  readonly error: string | null;
  /** Set while `waiting`: the blocking question(s) the turn waits on. */
  readonly pendingQuestions: readonly PendingQuestionView[];
}

export interface QueuedPrompt {
  readonly messageId: string;
  readonly turn: TurnRecord;
}

export interface EnqueuePrompt {
  readonly sessionId: string;
  readonly text: string;
  readonly origin: TurnOrigin;
  /** The `↗ from` badge of a prompt another agent sent (R-UI-05). */
  readonly provenance?: Provenance;
}

/**
 * Runs sessions' turns: one queue per session, one turn at a time, each on the session's
 * provider worker. Every state change is a row first, so a restart loses nothing but the
 * running turns, which end as `error` ("relay restarted").
 */
export interface SessionRuntime {
  /**
   * Appends the prompt as a message and queues its turn on `stores` (a transaction's, so that
   * the prompt lands with the rest of a call's change); nothing runs until `kick`, after commit.
   */
  queuePrompt(stores: EngineStores, input: EnqueuePrompt): Promise<QueuedPrompt>;
  /** Looks at the session's queue: its next turn starts when the session is free. */
  kick(sessionId: string): void;
  /** queuePrompt in a transaction of its own, then kick. */
  enqueuePrompt(input: EnqueuePrompt): Promise<QueuedPrompt>;
  /** Where the turn stands now. */
  snapshot(turnId: string): Promise<TurnSnapshot>;
  /**
   * Resolves when the turn ends, starts waiting on a question, or after `ms` of the clock's time
   * (with the snapshot at that moment); `signal` ends the wait early (client gone).
   */
  waitForTurn(turnId: string, ms: number, signal?: AbortSignal): Promise<TurnSnapshot>;
  /** The turn whose prompt message this is, for wait's `message_id`. */
  turnOfMessage(messageId: string): Promise<TurnRecord | null>;
  /** The reply being written in the session, if a turn runs. */
  inFlight(sessionId: string): { readonly turnId: string; readonly text: string } | null;
  /**
   * Stops the running turn (R-STOP-01) and the session's background tasks run here; `false` when
   * nothing was running (R-STOP-02).
   */
  stopTurn(sessionId: string): Promise<boolean>;
  /**
   * Kill session: closes the worker (its running turn ends as `stopped`, its tasks end) and starts
   * a new one for the next turn.
   */
  killWorker(sessionId: string): Promise<void>;
  /** Ends the session's background tasks run here (archive, delete): `stopped`, their groups gone. */
  endTasks(sessionId: string): Promise<void>;
  /** The end of a task's output file, read where it is (this host, or through a process of its own). */
  readTaskOutput(task: TaskRecord, maxBytes: number): Promise<OutputRead>;
  /**
   * A request of another process of the cluster, for this process (`target`, its runner lease):
   * done here only. Refused (REMOTE_RELAY_NOT_FOUND) when this process is not `target`.
   */
  serveCluster<R extends ClusterRequest>(request: R, target: string): Promise<ClusterReply<R>>;
  /** The last output this process saw of a task it runs; `undefined` for a task it does not run. */
  taskLastOutputAt(taskId: string): number | null | undefined;
  pendingQuestions(sessionId: string): Promise<PendingQuestionView[]>;
  /** Answers a blocking question card; `false` when it was no longer pending. */
  answerQuestion(questionId: string, answer: QuestionAnswer): Promise<boolean>;
  /** Writes this process's address to its lease now (Engine.announce). */
  announce(): Promise<void>;
  /** On start: running turns of the last process end as `error`; queued turns start. */
  start(): Promise<void>;
  close(): Promise<void>;
}
