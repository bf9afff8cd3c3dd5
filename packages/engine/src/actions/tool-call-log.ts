import type { RelayToolCall } from "@oar/schema";
import type { ToolCallWriter } from "../live/tool-call-writer";
import type { EngineDeps } from "../ports/engine-deps";
import type { ToolResult } from "../ports/tool-result";
import { isThisRelay } from "./relay";

/** The 🛰️ line shows a glimpse of the result; the whole result is in the conversation. */
export const TOOL_CALL_SUMMARY_MAX_CHARS = 300;
/** How many of a conversation's calls its owner view shows (the newest). */
export const TOOL_CALLS_SHOWN = 200;
/** A call that did not parse names things in the agent's own words: they are kept as short as an id. */
const UNPARSED_NAME_MAX_CHARS = 100;

/** What a call named: its action, the relay (`undefined`: this one) and the session. */
export interface CallNames {
  readonly action: string;
  readonly relay: string | undefined;
  readonly session: string | undefined;
}

export function namesOfCall(call: RelayToolCall): CallNames {
  return {
    action: call.action,
    relay: "relay" in call ? call.relay : undefined,
    session: "session" in call && typeof call.session === "string" ? call.session : undefined,
  };
}

/** The names a call that did not parse gives, where they are strings; no action → "unknown". */
export function namesOfInput(input: unknown): CallNames {
  const unknown: CallNames = { action: "unknown", relay: undefined, session: undefined };
  try {
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      return unknown;
    }
    const fields = input as Record<string, unknown>;
    const text = (value: unknown) =>
      typeof value === "string" && value.trim() !== "" ? clip(value, UNPARSED_NAME_MAX_CHARS) : undefined;
    return {
      action: text(fields.action) ?? "unknown",
      relay: text(fields.relay),
      session: text(fields.session),
    };
  } catch {
    // An input no JSON parser makes (a throwing getter) names nothing readable.
    return unknown;
  }
}

/**
 * At most `max` characters, an ellipsis marking a cut, never half a surrogate pair; without NUL,
 * which a Postgres text column refuses.
 */
export function clip(text: string, max: number): string {
  const clean = text.replaceAll("\u0000", "");
  if (clean.length <= max) {
    return clean;
  }
  let end = max - 1;
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    end--;
  }
  return `${clean.slice(0, end)}…`;
}

function summaryOf(result: ToolResult): string {
  const text = result.ok ? result.summary : result.error;
  return clip(typeof text === "string" ? text : "", TOOL_CALL_SUMMARY_MAX_CHARS);
}

/**
 * Queues the line of one call of a conversation of this relay (R-UI-02). A call answered
 * REMOTE_RELAY_UNAVAILABLE is not kept: a database did not answer, and the write would only wait
 * out the same outage.
 */
export function logToolCall(
  deps: EngineDeps,
  writer: ToolCallWriter,
  entry: {
    /** The call's id, which its log line names too. */
    readonly id: string;
    readonly sessionId: string;
    readonly names: CallNames;
    readonly result: ToolResult;
    /** When the call arrived. */
    readonly at: number;
  },
): void {
  const { names, result } = entry;
  if (result.code === "REMOTE_RELAY_UNAVAILABLE") {
    return;
  }
  const self = deps.relay.name;
  writer.add(deps, {
    id: entry.id,
    sessionId: entry.sessionId,
    action: names.action,
    relay: names.relay === undefined || isThisRelay(names.relay, self) ? self : names.relay,
    targetSession: names.session ?? null,
    ok: result.ok,
    code: result.ok || typeof result.code !== "string" ? null : result.code,
    summary: summaryOf(result),
    createdAt: entry.at,
  });
}
