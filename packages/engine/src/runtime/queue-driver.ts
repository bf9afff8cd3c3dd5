import type { TurnOutcome } from "../ports/provider";
import type { TurnRecord } from "../ports/session-store";
import type { Wakeups } from "../wakeups";
import type { BlockingQuestions } from "./blocking-questions";
import type { RunningTurn, RunningTurns } from "./running-turns";
import { errorMessage, type RuntimeContext } from "./runtime-context";
import { runTurn } from "./turn-runner";
import type { WorkerPool } from "./worker-pool";

export const SESSION_GONE_MESSAGE = "The session no longer exists.";

/** One queue per session, one turn at a time: claims the session's turns in order and runs them. */
export interface QueueDriver {
  /** Starts the session's queue unless it is already being driven (then it looks again when done). */
  kick(sessionId: string): void;
  /** Resolves when every queue of this process has stopped (after close). */
  drained(): Promise<void>;
}

interface Queue {
  again: boolean;
  done: Promise<void>;
}

export interface QueueDriverParts {
  readonly running: RunningTurns;
  readonly workers: WorkerPool;
  readonly questions: BlockingQuestions;
  readonly waiters: Wakeups;
}

export function createQueueDriver(ctx: RuntimeContext, parts: QueueDriverParts): QueueDriver {
  const { sessions } = ctx.stores;
  const queues = new Map<string, Queue>();

  const finish = async (record: TurnRecord, outcome: TurnOutcome, turn?: RunningTurn) => {
    const endedAt = ctx.clock.now();
    const reply = outcome.status === "done" ? outcome.reply : (outcome.reply ?? turn?.text ?? "");
    // The turn's end and its reply message are one write (see FinishTurn.replyMessageId).
    await sessions.finishTurn({
      turnId: record.id,
      status: outcome.status,
      reply: outcome.status === "done" || reply !== "" ? reply : null,
      error: outcome.status === "error" ? outcome.error : null,
      endedAt,
      replyMessageId: ctx.ids.next("message"),
    });
    await parts.questions.endOfTurn(record.id);
  };

  const settleSessionState = async (sessionId: string) => {
    const active = await sessions.listActiveTurns({ sessionId });
    if (active.length === 0) {
      await sessions.updateSession(sessionId, { state: "idle" });
    }
  };

  const outcomeOf = async (record: TurnRecord, turn: RunningTurn): Promise<TurnOutcome | null> => {
    try {
      const session = await sessions.getSession(record.sessionId);
      if (!session) {
        return { status: "error", error: SESSION_GONE_MESSAGE };
      }
      turn.setModel(session.model);
      await sessions.updateSession(session.id, { state: "running_turn" });
      const prompt =
        record.promptMessageId === null
          ? ""
          : ((await sessions.getMessage(record.promptMessageId))?.text ?? "");
      return await runTurn(ctx, {
        turn,
        worker: parts.workers.acquire(session),
        questions: parts.questions,
        input: {
          turnId: record.id,
          prompt,
          model: session.model,
          effort: session.effort,
          mode: record.origin.mode ?? session.mode,
          cwd: session.cwd,
        },
      });
    } catch (error) {
      return { status: "error", error: errorMessage(error) };
    }
  };

  const runClaimed = async (record: TurnRecord) => {
    // In the in-flight buffers from the claim on, so that a stop right away finds it.
    const turn = parts.running.begin({ turnId: record.id, sessionId: record.sessionId });
    try {
      const outcome = await outcomeOf(record, turn);
      // At shutdown the row stays `running`: the next start ends it as "relay restarted".
      if (outcome === null || ctx.isClosed()) {
        return;
      }
      await finish(record, outcome, turn);
      await settleSessionState(record.sessionId);
    } finally {
      parts.running.end(turn);
    }
    parts.waiters.notify(record.id);
  };

  const drive = async (sessionId: string, queue: Queue) => {
    try {
      for (;;) {
        queue.again = false;
        for (;;) {
          if (ctx.isClosed()) {
            return;
          }
          const record = await sessions.claimNextTurn({ sessionId, now: ctx.clock.now() });
          if (!record) {
            break;
          }
          await runClaimed(record);
        }
        if (!queue.again) {
          return;
        }
      }
    } catch (error) {
      ctx.logger.error("A session's turn queue stopped on an error.", {
        session: sessionId,
        error: errorMessage(error),
      });
    } finally {
      // Same synchronous step as the last look at `again`: a kick after it starts a new queue.
      if (queues.get(sessionId) === queue) {
        queues.delete(sessionId);
      }
    }
  };

  return {
    kick(sessionId) {
      if (ctx.isClosed()) {
        return;
      }
      const current = queues.get(sessionId);
      if (current) {
        current.again = true;
        return;
      }
      const queue: Queue = { again: false, done: Promise.resolve() };
      queues.set(sessionId, queue);
      queue.done = drive(sessionId, queue);
    },
    async drained() {
      await Promise.all([...queues.values()].map((queue) => queue.done));
    },
  };
}
