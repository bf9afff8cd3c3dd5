import type { TurnInput, TurnIO, TurnOutcome, Worker } from "../ports/provider";
import { errorMessage } from "../shared/error-message";
import type { BlockingQuestions } from "./blocking-questions";
import { outputMarker } from "./output-marks";
import type { RunningTurn, StopReason } from "./running-turns";
import type { RuntimeContext } from "./runtime-context";

export function maxTurnDurationMessage(seconds: number): string {
  return `The turn ran longer than the relay's max turn duration (${seconds} s) and was stopped.`;
}

/**
 * The outcome of a turn cut short; `null` when nothing may be written: at shutdown the row is
 * left for the next start, and a lost lease means another process already ended it.
 */
function outcomeOfStop(reason: StopReason, streamed: string): TurnOutcome | null {
  // As a done or error turn's reply: one trailing newline (a CLI's last line) is not part of it.
  const partial = streamed.endsWith("\n") ? streamed.slice(0, -1) : streamed;
  const reply = partial === "" ? {} : { reply: partial };
  switch (reason.kind) {
    case "stop":
    case "kill":
      return { status: "stopped", ...reply };
    case "timeout":
      return { status: "error", error: maxTurnDurationMessage(reason.seconds), ...reply };
    case "shutdown":
    case "lease_lost":
      return null;
  }
}

export interface RunTurnInput {
  readonly turn: RunningTurn;
  /** The provider the worker belongs to: usage is counted toward it. */
  readonly provider: string;
  readonly worker: Worker;
  readonly input: TurnInput;
  readonly questions: BlockingQuestions;
}

/**
 * Runs one turn on its worker, bounded by the max turn duration (R-WST-04: waiting on a question
 * counts too). A stop does not wait for the worker to notice: the turn ends at once.
 */
export async function runTurn(
  ctx: RuntimeContext,
  { turn, provider, worker, input, questions }: RunTurnInput,
) {
  // Streamed text and tool calls are the turn's activity: the stall check measures from the last.
  const output = outputMarker(ctx, turn.turnId);
  const io: TurnIO = {
    signal: turn.signal,
    clock: ctx.clock,
    appendText: (text) => {
      turn.append(text);
      output.saw();
    },
    askUser: (question) => questions.ask(turn, question),
    callTool: (call) => {
      output.saw();
      return ctx.callTool(turn.sessionId, call);
    },
    agentAccess: () => ctx.agentAccess(turn.sessionId),
    saveProviderState: async (state) => {
      await ctx.stores.sessions.updateSession(turn.sessionId, { providerState: state });
    },
    reportUsage: (usage) => ctx.reportUsage(turn.sessionId, provider, usage),
    startTask: (spec) => {
      output.saw();
      return ctx.tasks.start(turn, spec);
    },
    waitTask: (name) => ctx.tasks.wait(turn.sessionId, name, turn.signal),
  };
  const seconds = await readMaxTurnSeconds(ctx);
  if (turn.stopReason !== null) {
    return outcomeOfStop(turn.stopReason, turn.text);
  }
  const timer = ctx.clock.setTimeout(() => turn.stop({ kind: "timeout", seconds }), seconds * 1000);
  try {
    const stopped = new Promise<"stopped">((resolve) => {
      if (turn.signal.aborted) {
        resolve("stopped");
      }
      turn.signal.addEventListener("abort", () => resolve("stopped"), { once: true });
    });
    const work = Promise.resolve()
      .then(() => worker.runTurn(input, io))
      .catch((error: unknown): TurnOutcome => ({ status: "error", error: errorMessage(error) }));
    const first = await Promise.race([work, stopped]);
    if (turn.stopReason !== null) {
      return outcomeOfStop(turn.stopReason, turn.text);
    }
    return first === "stopped" ? null : first;
  } finally {
    ctx.clock.clearTimeout(timer);
  }
}

async function readMaxTurnSeconds(ctx: RuntimeContext): Promise<number> {
  try {
    const seconds = await ctx.maxTurnSeconds();
    return Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_MAX_TURN_SECONDS;
  } catch (error) {
    ctx.logger.warn("Reading the max turn duration failed; using the default.", {
      error: errorMessage(error),
    });
    return DEFAULT_MAX_TURN_SECONDS;
  }
}

export const DEFAULT_MAX_TURN_SECONDS = 3600;
