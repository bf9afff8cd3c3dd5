import { silentLogger } from "@oar/core";
import { relayAccess } from "@oar/permissions";
import { errorEnvelope, okEnvelope, parseCall, type RelayToolCall } from "@oar/schema";
import type { EngineDeps, ExecuteOptions, ToolResult } from "../engine";
import type { EngineLive } from "../live";
import { forwardCall } from "../peers/forward";
import { resolveRelayTarget } from "../peers/relay-target";
import type { SessionRecord } from "../ports/session-store";
import { keepRemoteQuestion } from "../questions/remote-questions";
import type { SessionRuntime } from "../runtime/session-runtime";
import { readSettings } from "../settings";
import { answerQuestion } from "./answer-question";
import { forOtherSession, localGate } from "./approvals";
import { archive } from "./archive";
import { type ActionContext, type ActionSuccess, callerProfileOf, withCaller } from "./context";
import { createSession } from "./create-session";
import { listRelays } from "./list-relays";
import { listSessions } from "./list-sessions";
import { ask } from "./questions/ask";
import { listQuestions } from "./questions/list-questions";
import { withdraw } from "./questions/withdraw";
import { readSession } from "./read-session";
import { readTaskOutput } from "./read-task-output";
import { enforce, refusalEnvelope, refuse } from "./refusal";
import { relayInfo } from "./relay-info";
import { listSchedules } from "./schedules/list-schedules";
import { schedule } from "./schedules/schedule";
import { refuseScheduleElsewhere, SCHEDULE_ACTIONS } from "./schedules/schedules-here";
import { unschedule } from "./schedules/unschedule";
import { send } from "./send";
import { stop } from "./stop";
import { listSubscriptions } from "./subscriptions/list-subscriptions";
import { subscribe } from "./subscriptions/subscribe";
import { transferSubscriptions } from "./subscriptions/transfer-subscriptions";
import { unsubscribe } from "./subscriptions/unsubscribe";
import { summaryLine } from "./summary";
import { type CallNames, logToolCall, namesOfCall, namesOfInput } from "./tool-call-log";
import { updateSession } from "./update-session";
import { usage } from "./usage";
import { wait } from "./wait";

/** The engine's parts every call runs with. */
export interface EngineParts {
  readonly deps: EngineDeps;
  readonly runtime: SessionRuntime;
  readonly live: EngineLive;
}

/** The actions that work on this relay, for any caller. */
export function runOnThisRelay(ctx: ActionContext, call: RelayToolCall): Promise<ActionSuccess> {
  switch (call.action) {
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
    case "subscribe":
      return subscribe(ctx, call);
    case "unsubscribe":
      return unsubscribe(ctx, call);
    case "list_subscriptions":
      return listSubscriptions(ctx, call);
    case "transfer_subscriptions":
      return transferSubscriptions(ctx, call);
    case "read_task_output":
      return readTaskOutput(ctx, call);
    case "schedule":
      refuseScheduleElsewhere(ctx, call.action, ctx.from.relay);
      return withCaller(ctx).then((withIt) => schedule(withIt, call));
    case "list_schedules":
      refuseScheduleElsewhere(ctx, call.action, ctx.from.relay);
      return listSchedules(ctx, call);
    case "unschedule":
      refuseScheduleElsewhere(ctx, call.action, ctx.from.relay);
      return unschedule(ctx, call);
    case "ask":
      return ask(ctx, call);
    case "list_questions":
      return listQuestions(ctx, call);
    case "withdraw":
      return withdraw(ctx, call);
    case "list_relays":
      return listRelays(ctx);
  }
}

/** What a call produced: an action's success, which becomes this relay's envelope, or a finished result (a paired relay's). */
export type CallOutcome =
  | { readonly kind: "success"; readonly success: ActionSuccess }
  | { readonly kind: "result"; readonly result: ToolResult };

/**
 * Turns what a call produced into its result: the success envelope with `relay`, `summary`
 * (R-CALL-10), `ignored` and `note`; a refusal's error envelope; anything else is a bug, logged
 * with a request id and answered REMOTE_RELAY_INTERNAL.
 */
async function respond(
  deps: EngineDeps,
  request: {
    readonly call: RelayToolCall;
    readonly ignored: readonly string[];
    readonly log: Readonly<Record<string, unknown>>;
  },
  produce: () => Promise<CallOutcome>,
): Promise<ToolResult> {
  const { call, ignored } = request;
  try {
    const outcome = await produce();
    if (outcome.kind === "result") {
      return outcome.result;
    }
    const { success } = outcome;
    const note = (success.notes ?? []).join(" ");
    return okEnvelope(
      {
        relay: deps.relay.name,
        summary: summaryLine({
          action: call.action,
          relay: deps.relay.name,
          ...(success.session === undefined ? {} : { session: success.session }),
          ...(success.task === undefined ? {} : { task: success.task }),
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
      ...request.log,
      error,
    });
    return errorEnvelope(
      "REMOTE_RELAY_INTERNAL",
      `The relay failed on this ${call.action} call (request ${requestId}); the owner can find it in the relay's log.`,
      { requestId, ignored },
    );
  }
}

/** parseCall (R-CALL-06…09), then `respond` with what `produce` makes of the call. */
export async function parseAndRespond(
  deps: EngineDeps,
  input: unknown,
  log: Readonly<Record<string, unknown>>,
  produce: (call: RelayToolCall) => Promise<CallOutcome>,
): Promise<ToolResult> {
  const parsed = parseCall(input);
  if (!parsed.ok) {
    return parsed.envelope;
  }
  const { call, ignored } = parsed;
  return respond(deps, { call, ignored, log }, () => produce(call));
}

function localContext(
  parts: EngineParts,
  callerSessionId: string,
  settings: ActionContext["settings"],
  signal: AbortSignal | undefined,
): { readonly ctx: ActionContext; readonly loadSession: () => Promise<SessionRecord> } {
  const { deps } = parts;
  let caller: Promise<SessionRecord> | undefined;
  const loadSession = () => {
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
  const ctx: ActionContext = {
    ...parts,
    callerId: callerSessionId,
    from: { relay: null, session: callerSessionId },
    loadCaller: () => loadSession().then(callerProfileOf),
    settings,
    signal,
    gate: (call, facts) => localGate(ctx, call, facts),
  };
  return { ctx, loadSession };
}

async function runLocalCall(
  parts: EngineParts,
  request: {
    readonly callerSessionId: string;
    readonly call: RelayToolCall;
    readonly input: unknown;
    readonly options: ExecuteOptions;
  },
): Promise<CallOutcome> {
  const { deps } = parts;
  const { call } = request;
  const settings = await readSettings(deps.stores.settings);
  const { ctx, loadSession } = localContext(parts, request.callerSessionId, settings, request.options.signal);
  // A deleted or unknown caller gets nothing, reads included (DESIGN §7). A caller found live is
  // remembered for a second, so that a read costs no query for it.
  await parts.live.liveCallers.get(request.callerSessionId, () => loadSession().then(() => true));
  if (call.action === "list_relays") {
    return { kind: "success", success: await listRelays(ctx) };
  }
  const target = await resolveRelayTarget(ctx, call.relay);
  if (target.kind === "paired" && SCHEDULE_ACTIONS.has(call.action)) {
    refuseScheduleElsewhere(ctx, call.action, target.peer.name);
  }
  if (target.kind === "paired") {
    const result = await forwardCall(ctx, target.peer, call, request.input);
    if (call.action === "ask") {
      await keepRemoteQuestion(ctx, target.peer, call, result);
    }
    return { kind: "result", result };
  }
  // GAP-02: this relay's sessions only while the owner allows agents to use them.
  enforce(
    relayAccess({
      action: call.action,
      forOtherSession: forOtherSession(ctx, call),
      relay: { kind: "self", name: deps.relay.name, agentSessionsEnabled: settings.agentSessions.enabled },
      acceptsPromptsFromOtherRelays: true,
    }),
  );
  return { kind: "success", success: await runOnThisRelay(ctx, call) };
}

/**
 * Runs one relay_tool call for the calling session of this relay: the call rules (parseCall), the
 * caller, the relay (§3.1) — a paired relay gets the call forwarded after this relay's own rules —
 * the owner's switch (GAP-02), then the action. Refusals come back as error envelopes. The call
 * and its outcome are kept in the caller's activity log.
 */
export async function executeCall(
  parts: EngineParts,
  callerSessionId: string,
  input: unknown,
  options: ExecuteOptions = {},
): Promise<ToolResult> {
  const at = parts.deps.clock.now();
  let names: CallNames | undefined;
  const result = await parseAndRespond(parts.deps, input, { callerSessionId }, (call) => {
    names = namesOfCall(call);
    return runLocalCall(parts, { callerSessionId, call, input, options });
  });
  // R-UI-02: every call of this relay's conversations goes in its activity, refusals included.
  logToolCall(parts.deps, parts.live.toolCalls, {
    sessionId: callerSessionId,
    names: names ?? namesOfInput(input),
    result,
    at,
  });
  return result;
}
