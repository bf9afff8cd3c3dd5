import { silentLogger } from "@oar/core";
import { ACTIONS, type Action } from "@oar/schema";
import { namesOfInput } from "../actions/tool-call-log";
import type { EngineDeps } from "../ports/engine-deps";
import { silentObserver } from "../ports/engine-observer";
import type { ToolResult } from "../ports/tool-result";

/** Who made a call: its id (the activity line's, for a call of this relay's own agent), its conversation. */
export interface CallWho {
  readonly callId: string;
  readonly session: string;
  /** The paired relay it came from; absent for this relay's own agents. */
  readonly fromRelay?: string;
}

const KNOWN_ACTIONS: ReadonlySet<string> = new Set(ACTIONS);

/**
 * Runs a relay_tool call and reports it once: one log line (ids, action, outcome and duration —
 * never its arguments, which carry prompts) and the observer's count. `run` calls `started` once
 * the call parsed, before its action runs. A call that did not parse is named by the action it
 * gave when that is one, else `invalid`, so the metrics' labels stay a known set.
 */
export async function reportedCall(
  deps: EngineDeps,
  who: CallWho & { readonly input: unknown },
  run: (started: (action: Action) => void) => Promise<ToolResult>,
): Promise<ToolResult> {
  const observer = deps.observer ?? silentObserver;
  const at = deps.clock.now();
  let action: Action | undefined;
  let result: ToolResult | undefined;
  try {
    result = await run((parsed) => {
      action = parsed;
      observer.toolCallStarted(parsed);
    });
    return result;
  } finally {
    const named = action ?? namesOfInput(who.input).action;
    const label = KNOWN_ACTIONS.has(named) ? named : "invalid";
    const outcome =
      result === undefined
        ? "REMOTE_RELAY_INTERNAL"
        : result.ok
          ? "ok"
          : typeof result.code === "string"
            ? result.code
            : "error";
    const durationMs = deps.clock.now() - at;
    (deps.logger ?? silentLogger).info("relay_tool call", {
      call: who.callId,
      session: who.session,
      ...(who.fromRelay === undefined ? {} : { fromRelay: who.fromRelay }),
      action: label,
      status: outcome,
      durationMs,
    });
    observer.toolCallEnded({ action: label, outcome, durationMs, started: action !== undefined });
  }
}
