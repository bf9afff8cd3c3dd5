import type { OwnerToolCall } from "@oar/schema";
import { TOOL_CALLS_SHOWN } from "../actions/tool-call-log";
import type { ToolCallRecord } from "../ports/tool-call-store";
import type { OwnerContext } from "./owner-context";

/** A call as the conversation's activity shows it (R-UI-02: 🛰️ the action, the relay, the session). */
export function toolCallView(call: ToolCallRecord): OwnerToolCall {
  return {
    id: call.id,
    action: call.action,
    relay: call.relay,
    session: call.targetSession,
    ok: call.ok,
    code: call.code,
    summary: call.summary,
    at: call.createdAt,
  };
}

/** The conversation's newest calls, oldest first, those this process is still writing included. */
export async function recentToolCalls(ctx: OwnerContext, sessionId: string): Promise<OwnerToolCall[]> {
  await ctx.live.toolCalls.settled();
  const calls = await ctx.deps.stores.toolCalls.listToolCalls(sessionId, { limit: TOOL_CALLS_SHOWN });
  return calls.map(toolCallView);
}
