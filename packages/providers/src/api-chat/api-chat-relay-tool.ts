import {
  LEGACY_RELAY_TOOL_NAME,
  RELAY_TOOL_DESCRIPTION,
  RELAY_TOOL_NAME,
  relayToolInputJsonSchema,
} from "@oar/schema";
import { type JSONSchema7, jsonSchema, type ToolCallRepairFunction, type ToolSet, tool } from "ai";
import type { ModelTimer } from "./api-chat-timer";

/** What the conversation keeps for a call the stop cut short: the relay may still have run it. */
export const CUT_SHORT_RESULT =
  "The turn was stopped before relay_tool answered; the call may or may not have run.";

/** Rejects once the signal aborts, saying so; `promise` goes on, unobserved. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => undefined);
  if (signal.aborted) {
    return Promise.reject(new Error(CUT_SHORT_RESULT));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(CUT_SHORT_RESULT));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * The model's one tool: relay_tool, run by the relay as the session (`callTool`). The engine checks
 * the input and answers a bad call with an `ok: false` result, which goes back to the model like
 * any other: the schema here only tells the model what to send. A stop ends the wait at once (a
 * `wait` on another session may last long); the call's time is not the model's (`timer`).
 */
export function relayToolSet(options: {
  readonly callTool: (input: unknown) => Promise<unknown>;
  readonly signal: AbortSignal;
  readonly timer: ModelTimer;
}): ToolSet {
  return {
    [RELAY_TOOL_NAME]: tool({
      description: RELAY_TOOL_DESCRIPTION,
      inputSchema: jsonSchema<Record<string, unknown>>(relayToolInputJsonSchema as JSONSchema7),
      execute: async (input) => {
        options.timer.pause();
        try {
          return await unlessAborted(options.callTool(input), options.signal);
        } finally {
          options.timer.resume();
        }
      },
    }),
  };
}

/**
 * R-NAME-07: a call of the legacy name `remote_relay` runs as relay_tool, though only relay_tool is
 * listed. Any other unknown tool stays unknown, and the model is told so.
 */
export const runLegacyNameAsRelayTool: ToolCallRepairFunction<ToolSet> = async ({ toolCall }) =>
  toolCall.toolName === LEGACY_RELAY_TOOL_NAME ? { ...toolCall, toolName: RELAY_TOOL_NAME } : null;
