import { silentLogger } from "@oar/core";
import { errorEnvelope, okEnvelope, parseCall, type RelayToolCall } from "@oar/schema";
import type { EngineDeps, ExecuteOptions, ToolResult } from "../engine";
import type { SessionRecord } from "../ports/session-store";
import type { SessionRuntime } from "../runtime/session-runtime";
import { readSettings } from "../settings";
import { answerQuestion } from "./answer-question";
import { countPrompt, gateCall } from "./approvals";
import { archive } from "./archive";
import { type ActionContext, type ActionSuccess, withCaller } from "./context";
import { createSession } from "./create-session";
import { AGENT_SESSIONS_SETTING, listRelays } from "./list-relays";
import { listSessions } from "./list-sessions";
import { readSession } from "./read-session";
import { refusalEnvelope, refuse } from "./refusal";
import { resolveRelay } from "./relay";
import { relayInfo } from "./relay-info";
import { send } from "./send";
import { stop } from "./stop";
import { summaryLine } from "./summary";
import { unsupported } from "./unsupported";
import { updateSession } from "./update-session";
import { usage } from "./usage";
import { wait } from "./wait";

const GATED_IN_ACTION: ReadonlySet<string> = new Set(["create_session", "update_session"]);

/** The engine's parts every call runs with. */
export interface EngineParts {
  readonly deps: EngineDeps;
  readonly runtime: SessionRuntime;
}

function run(ctx: ActionContext, call: RelayToolCall): Promise<ActionSuccess> {
  switch (call.action) {
    case "list_relays":
      return listRelays(ctx);
    case "relay_info":
      return relayInfo(ctx);
    case "usage":
      return usage(ctx);
    case "list_sessions":
      return listSessions(ctx, call);
    case "read_session":
      return readSession(ctx, call);
    case "send":
      return withCaller(ctx).then((withIt) => send(withIt, call));
    case "create_session":
      return withCaller(ctx).then((withIt) => createSession(withIt, call));
    case "update_session":
      return updateSession(ctx, call);
    case "wait":
      return wait(ctx, call);
    case "answer_question":
      return answerQuestion(ctx, call);
    case "stop":
      return stop(ctx, call);
    case "archive":
      return archive(ctx, call);
    default:
      return Promise.resolve(unsupported(call.action));
  }
}

/** Everything but list_relays works on a relay (§3.1), and on this one only while the owner allows it (GAP-02). */
function checkRelay(ctx: ActionContext, call: RelayToolCall): void {
  if (call.action === "list_relays") {
    return;
  }
  const { name } = ctx.deps.relay;
  resolveRelay(call.relay, name);
  if (!ctx.settings.agentSessions.enabled) {
    refuse(
      "REMOTE_RELAY_PERMISSION",
      `Agents may not use sessions on relay "${name}": the owner's setting "${AGENT_SESSIONS_SETTING}" is off.`,
    );
  }
}

async function runCall(
  parts: EngineParts,
  request: {
    readonly callerSessionId: string;
    readonly call: RelayToolCall;
    readonly signal: AbortSignal | undefined;
    readonly callerVerified: boolean;
  },
): Promise<ActionSuccess> {
  const { deps, runtime } = parts;
  const { callerSessionId } = request;
  let caller: Promise<SessionRecord> | undefined;
  const loadCaller = () => {
    caller ??= deps.stores.sessions.getSession(callerSessionId).then((record) => {
      if (!record) {
        refuse(
          "REMOTE_RELAY_AUTH",
          `The calling session "${callerSessionId}" is not a session of relay "${deps.relay.name}" (unknown or deleted).`,
        );
      }
      return record;
    });
    return caller;
  };
  if (!request.callerVerified) {
    await loadCaller();
  }
  const settings = await readSettings(deps.stores.settings);
  const ctx: ActionContext = {
    deps,
    runtime,
    callerId: callerSessionId,
    loadCaller,
    settings,
    signal: request.signal,
  };
  checkRelay(ctx, request.call);
  const cards = deps.approvalCards === true;
  // These two ask from inside the action, after their own checks (R-MDL-01, R-CGRP-05, R-UPD-06/10/12).
  if (cards && !GATED_IN_ACTION.has(request.call.action)) {
    await gateCall(ctx, request.call);
  }
  const success = await run(ctx, request.call);
  if (cards) {
    await countPrompt(ctx, request.call);
  }
  return success;
}

/**
 * Runs one relay_tool call for the calling session: the call rules (parseCall), the caller, the
 * relay (§3.1), the owner's switch (GAP-02), then the action. Refusals come back as error
 * envelopes; anything else is a bug, logged with a request id and answered REMOTE_RELAY_INTERNAL.
 */
export async function executeCall(
  parts: EngineParts,
  callerSessionId: string,
  input: unknown,
  options: ExecuteOptions = {},
): Promise<ToolResult> {
  const parsed = parseCall(input);
  if (!parsed.ok) {
    return parsed.envelope;
  }
  const { call, ignored } = parsed;
  const { deps } = parts;
  try {
    const success = await runCall(parts, {
      callerSessionId,
      call,
      signal: options.signal,
      callerVerified: options.callerVerified === true,
    });
    const note = (success.notes ?? []).join(" ");
    return okEnvelope(
      {
        relay: deps.relay.name,
        summary: summaryLine({
          action: call.action,
          relay: deps.relay.name,
          ...(success.session === undefined ? {} : { session: success.session }),
          details: success.details,
        }),
        ignored,
        ...(note === "" ? {} : { note }),
      },
      success.fields,
    );
  } catch (error) {
    const refusal = refusalEnvelope(error, ignored);
    if (refusal) {
      return refusal;
    }
    const requestId = deps.ids.next("request");
    (deps.logger ?? silentLogger).error("relay_tool call failed", {
      requestId,
      action: call.action,
      callerSessionId,
      error,
    });
    return errorEnvelope(
      "REMOTE_RELAY_INTERNAL",
      `The relay failed on this ${call.action} call (request ${requestId}); the owner can find it in the relay's log.`,
      { requestId, ignored },
    );
  }
}
