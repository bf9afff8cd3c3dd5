import { silentLogger } from "@oar/core";
import { relayAccess } from "@oar/permissions";
import { errorEnvelope, okEnvelope, parseCall, type RelayToolCall } from "@oar/schema";
import { answerQuestion } from "../actions/answer-question";
import { forOtherSession, localGate } from "../actions/approvals";
import { archive } from "../actions/archive";
import { type ActionContext, type ActionSuccess, callerProfileOf, withCaller } from "../actions/context";
import { createSession } from "../actions/create-session";
import { listRelays } from "../actions/list-relays";
import { listSessions } from "../actions/list-sessions";
import { ask } from "../actions/questions/ask";
import { listQuestions } from "../actions/questions/list-questions";
import { withdraw } from "../actions/questions/withdraw";
import { readSession } from "../actions/read-session";
import { readTaskOutput } from "../actions/read-task-output";
import { enforce, refusalEnvelope, refuse } from "../actions/refusal";
import { relayInfo } from "../actions/relay-info";
import { listSchedules } from "../actions/schedules/list-schedules";
import { schedule } from "../actions/schedules/schedule";
import { refuseScheduleElsewhere, SCHEDULE_ACTIONS } from "../actions/schedules/schedules-here";
import { unschedule } from "../actions/schedules/unschedule";
import { send } from "../actions/send";
import { stop } from "../actions/stop";
import { listSubscriptions } from "../actions/subscriptions/list-subscriptions";
import { subscribe } from "../actions/subscriptions/subscribe";
import { transferSubscriptions } from "../actions/subscriptions/transfer-subscriptions";
import { unsubscribe } from "../actions/subscriptions/unsubscribe";
import { summaryLine } from "../actions/summary";
import { type CallNames, logToolCall, namesOfCall, namesOfInput } from "../actions/tool-call-log";
import { updateSession } from "../actions/update-session";
import { usage } from "../actions/usage";
import { wait } from "../actions/wait";
import type { EngineLive } from "../live/engine-live";
import { forwardCall } from "../peers/forward";
import { resolveRelayTarget } from "../peers/relay-target";
import { keepRemoteQuestion } from "../peers/remote-questions";
import type { EngineDeps } from "../ports/engine-deps";
import type { SessionRecord } from "../ports/session-store";
import type { ExecuteOptions, ToolResult } from "../ports/tool-result";
import type { SessionRuntime } from "../runtime/session-runtime";
import { readSettings } from "../settings/settings";
import { reportedCall } from "./call-report";

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
  // The activity line's id names the call in the relay's log too.
  const callId = parts.deps.ids.next("toolCall");
  const result = await reportedCall(parts.deps, { callId, session: callerSessionId, input }, (started) =>
    parseAndRespond(parts.deps, input, { callerSessionId }, (call) => {
      names = namesOfCall(call);
      started(call.action);
      return runLocalCall(parts, { callerSessionId, call, input, options });
    }),
  );
  // R-UI-02: every call of this relay's conversations goes in its activity, refusals included.
  logToolCall(parts.deps, parts.live.toolCalls, {
    id: callId,
    sessionId: callerSessionId,
    names: names ?? namesOfInput(input),
    result,
    at,
  });
  return result;
}
