import type { TurnOutcome } from "@oar/engine";
import { RELAY_TOOL_NAME } from "@oar/schema";
import { apiErrorText } from "./api-chat-errors";
import type { ApiChatVendor } from "./api-chat-vendors";

/** How the turn's loop ended, as the turn saw it. */
export interface TurnEnding {
  /** A stop (or the timeout) cut the loop short. */
  readonly stopped: boolean;
  readonly timedOut: boolean;
  /** The API's error, or the client's. */
  readonly failure: unknown;
  /** The last model call asked for tools, and no more calls were allowed. */
  readonly outOfSteps: boolean;
}

export interface OutcomeContext {
  readonly vendor: ApiChatVendor;
  readonly baseUrl: string;
  readonly maxSteps: number;
  readonly timeoutSeconds: number;
}

/** The turn's outcome: a stop first, then the timeout, an API error, the step bound; else done. */
export function turnOutcome(context: OutcomeContext, ending: TurnEnding, reply: string): TurnOutcome {
  const { vendor } = context;
  const withReply = reply === "" ? {} : { reply };
  if (ending.stopped && ending.timedOut) {
    return {
      status: "error",
      error: `${vendor.name}'s API kept the turn waiting longer than its timeout (${context.timeoutSeconds} s): the turn was ended.`,
      ...withReply,
    };
  }
  if (ending.stopped) {
    return { status: "stopped", ...withReply };
  }
  if (ending.failure !== undefined) {
    return { status: "error", error: apiErrorText(vendor, context.baseUrl, ending.failure), ...withReply };
  }
  if (ending.outOfSteps) {
    return {
      status: "error",
      error: `${vendor.name} stopped after ${context.maxSteps} steps: the model still wanted to call ${RELAY_TOOL_NAME}, and a turn takes at most ${context.maxSteps} model calls. Send a prompt to let it go on.`,
      ...withReply,
    };
  }
  return { status: "done", reply };
}
