import { recordTurnEnded, recordTurnStarted } from "../outbox/outbox";
import type { EngineStores } from "../ports/engine-stores";
import type { TurnOutcome } from "../ports/provider";
import type { MessageRecord, SessionRecord, TurnRecord, TurnRunner } from "../ports/session-store";
import { errorMessage } from "../shared/error-message";
import { settleSessionState } from "../tasks/session-state";
import type { Wakeups } from "../wakeups";
import type { BlockingQuestions } from "./blocking-questions";
import type { RunningTurn, RunningTurns } from "./running-turns";
import type { RuntimeContext } from "./runtime-context";
import { reportTurnEnded } from "./turn-report";
import { runTurn } from "./turn-runner";
import { untilItLands } from "./until-it-lands";
import type { WorkerPool } from "./worker-pool";

export const SESSION_GONE_MESSAGE = "The session no longer exists.";

/** A provider's text as a text column takes it: Postgres stores no NUL character. */
export function storableText(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD");
}

/** One queue per session, one turn at a time: claims the session's turns in order and runs them. */
export interface QueueDriver {
  /** Starts the session's queue unless it is already being driven (then it looks again when done). */
  kick(sessionId: string): void;
  /** Resolves when every queue of this process has stopped (after close). */
  drained(): Promise<void>;
}

/** A claimed turn, with its session (running_turn from the claim on; `null` when gone) and its prompt. */
interface Claim {
  readonly record: TurnRecord;
  readonly session: SessionRecord | null;
  readonly prompt: MessageRecord | null;
}

/** The turn of the session running under exactly this runner's lease and token, as a claim. */
async function claimedUnderOwnLease(
  stores: EngineStores,
  sessionId: string,
  runner: TurnRunner,
): Promise<Claim | undefined> {
  const active = await stores.sessions.listActiveTurns({ sessionId });
  const record = active.find(
    (turn) =>
      turn.status === "running" && turn.runner?.lease === runner.lease && turn.runner.token === runner.token,
  );
  if (record === undefined) {
    return undefined;
  }
  return {
    record,
    session: await stores.sessions.getSession(sessionId),
    prompt: await promptOf(stores, record),
  };
}

/** The message a claimed turn starts with; `null` for a turn with none. */
function promptOf(stores: EngineStores, record: TurnRecord): Promise<MessageRecord | null> {
  return record.promptMessageId === null
    ? Promise.resolve(null)
    : stores.sessions.getMessage(record.promptMessageId);
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
  const queues = new Map<string, Queue>();
  const writer = (stores: RuntimeContext["stores"]) => ({ stores, ids: ctx.ids, relayName: ctx.relayName });

  /**
   * Ends the turn with its reply message, its question cards and its session's state in one
   * change, retried while the database does not answer: a turn that ends during an outage is
   * written once the database is back, and the session's queue goes on. Under a lease, only the
   * runner that claimed it ends it (DESIGN §9).
   */
  const finish = async (claim: Claim, outcome: TurnOutcome, turn?: RunningTurn) => {
    const { record } = claim;
    const endedAt = ctx.clock.now();
    const reply = outcome.status === "done" ? outcome.reply : (outcome.reply ?? turn?.text ?? "");
    const replyMessageId = ctx.ids.next("message");
    const end = (ending: { reply: string | null; error: string | null }) =>
      untilItLands(ctx, "ending a turn", () =>
        ctx.stores.transaction(async (stores) => {
          const ended = await stores.sessions.finishTurn({
            turnId: record.id,
            status: outcome.status,
            ...ending,
            endedAt,
            replyMessageId,
            ...(record.runner === null ? {} : { runner: record.runner }),
          });
          if (!ended) {
            return null;
          }
          await stores.questions.endBlockingQuestionsOfTurn({ turnId: record.id, at: endedAt });
          const session = await settleSessionState(stores, record.sessionId);
          await recordTurnEnded(writer(stores), ended, session?.title ?? "");
          return ended;
        }),
      );
    let ended: TurnRecord | null | undefined;
    try {
      ended = await end({
        reply: outcome.status === "done" || reply !== "" ? storableText(reply) : null,
        error: outcome.status === "error" ? storableText(outcome.error) : null,
      });
    } catch (error) {
      // The reply itself could not be stored: the turn still ends, saying why.
      ctx.logger.error("A turn's end could not be written; it ends without its reply.", {
        turn: record.id,
        error: errorMessage(error),
      });
      ended = await end({
        reply: null,
        error: `The turn's reply could not be stored: ${errorMessage(error)}`,
      });
    }
    // A turn another runner or the owner ended first is theirs to report; undefined: closed first.
    if (ended) {
      reportTurnEnded(ctx, ended, claim.session?.provider ?? null);
    }
  };

  const outcomeOf = async (claim: Claim, turn: RunningTurn): Promise<TurnOutcome | null> => {
    const { record, session, prompt } = claim;
    try {
      // Closed since the claim: the row stays `running` for the next start, as at any shutdown.
      if (ctx.isClosed()) {
        return null;
      }
      if (!session) {
        return { status: "error", error: SESSION_GONE_MESSAGE };
      }
      turn.setModel(session.model);
      await ctx.refreshProviders();
      return await runTurn(ctx, {
        turn,
        provider: session.provider,
        worker: parts.workers.acquire(session),
        questions: parts.questions,
        input: {
          turnId: record.id,
          prompt: prompt?.text ?? "",
          model: session.model,
          effort: session.effort,
          mode: record.origin.mode ?? session.mode,
          cwd: session.cwd,
          settings: session.settings,
        },
      });
    } catch (error) {
      return { status: "error", error: errorMessage(error) };
    }
  };

  const runClaimed = async (claim: Claim) => {
    const { record } = claim;
    // In the in-flight buffers from the claim on, so that a stop right away finds it.
    const turn = parts.running.begin({ turnId: record.id, sessionId: record.sessionId });
    try {
      const outcome = await outcomeOf(claim, turn);
      // At shutdown the row stays `running`: the next start ends it as "relay restarted".
      if (outcome === null || ctx.isClosed()) {
        return;
      }
      await finish(claim, outcome, turn);
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
          const runner = ctx.runner();
          let tries = 0;
          // Without a lease (this process lost its own and seeks another) nothing is claimed.
          const claim =
            runner === undefined
              ? null
              : await untilItLands(ctx, "claiming a turn", () =>
                  // The claim, its turn_started event and the session's running state are one
                  // change (DESIGN §9), which also reads what the turn starts with.
                  ctx.stores.transaction(async (stores): Promise<Claim | null> => {
                    const now = ctx.clock.now();
                    tries += 1;
                    // A process that stalled past its lease (a long pause) may not know yet that
                    // another recovered it: a turn claimed under that lease would be nobody's.
                    if (
                      !(await stores.leases.holdsLease({ name: runner.lease, fencingToken: runner.token }))
                    ) {
                      return null;
                    }
                    // A retried claim may follow one whose commit landed while its answer was lost
                    // to a cut: that turn runs under this very lease, and only this loop runs this
                    // session's turns here, so it is that claim, never started: it is taken up.
                    const answerLost =
                      tries > 1 ? await claimedUnderOwnLease(stores, sessionId, runner) : undefined;
                    if (answerLost !== undefined) {
                      return answerLost;
                    }
                    const record = await stores.sessions.claimNextTurn({ sessionId, now, runner });
                    if (!record) {
                      return null;
                    }
                    const session = await stores.sessions.updateSession(sessionId, { state: "running_turn" });
                    await recordTurnStarted(
                      writer(stores),
                      record,
                      { id: sessionId, title: session?.title ?? "" },
                      now,
                    );
                    const prompt = await promptOf(stores, record);
                    return { record, session, prompt };
                  }),
                );
          if (!claim) {
            break;
          }
          await runClaimed(claim);
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
