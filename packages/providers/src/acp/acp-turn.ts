import { setTimeout as delay } from "node:timers/promises";
import * as acp from "@agentclientprotocol/sdk";
import type { TurnInput, TurnIO, TurnOutcome } from "@oar/engine";
import { type AcpAgent, errorText, isAuthRequired } from "./acp-agent";
import { decidePermission } from "./acp-permissions";
import { exitDescription } from "./acp-process";
import { agentModeFor, configChange } from "./acp-session-settings";
import type { AcpTranscript } from "./acp-transcript";
import { acpToolLine } from "./acp-transcript";
import { readPromptUsage, readUpdateCostUsd, usageAdded } from "./acp-usage";

export interface AcpTurnContext {
  readonly agentName: string;
  readonly program: string;
  readonly agent: AcpAgent;
  readonly transcript: AcpTranscript;
  /** Aborted by a stop, the worker's close or the definition's timeout. */
  readonly signal: AbortSignal;
  /** Why the signal was aborted, once it is: a timeout turns the stop into an error. */
  readonly timedOut: () => boolean;
  readonly timeoutSeconds: number | undefined;
  /** How long, in real milliseconds, the agent gets to end a cancelled prompt before it is killed. */
  readonly cancelGraceMs: number;
  /** Told when the agent says it is not signed in. */
  readonly signedOut: (message: string) => void;
}

/** How a prompt ended, before it is turned into the turn's outcome. */
type PromptEnd =
  | { readonly kind: "answered"; readonly response: acp.PromptResponse }
  | { readonly kind: "failed"; readonly error: unknown }
  | { readonly kind: "cut" };

/** A turn that ended and left the agent unusable (killed, crashed): the worker starts another. */
export interface AcpTurnResult {
  readonly outcome: TurnOutcome;
  readonly agentLost: boolean;
}

/**
 * Runs one prompt turn on an open session: the relay's mode and model are applied where the
 * agent offers them, the reply streams to the transcript, permission requests become cards, and
 * a stop sends `session/cancel` (the agent is killed if it has not ended the prompt in time).
 */
export async function runAcpPrompt(
  ctx: AcpTurnContext,
  input: TurnInput,
  io: TurnIO,
): Promise<AcpTurnResult> {
  const { agent, transcript } = ctx;
  const sessionId = agent.sessionId;
  if (sessionId === null) {
    throw new Error("runAcpPrompt needs an open session");
  }
  await applySessionSettings(agent, sessionId, input);
  agent.sink = {
    onUpdate: (update) => showUpdate(agent, transcript, update),
    requestPermission: (request) =>
      decidePermission(
        { agentName: ctx.agentName, mode: input.mode, io, signal: ctx.signal, note: transcript.note },
        request,
      ),
  };
  try {
    const end = await promptUntilCut(ctx, sessionId, input.prompt);
    await reportUsage(agent, io, end.kind === "answered" ? end.response : undefined);
    if (end.kind === "failed" && agent.process.connection.signal.aborted) {
      await exitSoon(agent);
    }
    return outcomeOf(ctx, end);
  } finally {
    agent.sink = undefined;
  }
}

async function applySessionSettings(agent: AcpAgent, sessionId: string, input: TurnInput): Promise<void> {
  const { connection } = agent.process;
  const modes = agent.offer.modes;
  const modeId = agentModeFor(input.mode, modes?.availableModes ?? []);
  if (modes !== null && modeId !== undefined && modes.currentModeId !== modeId) {
    await connection.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId });
    agent.offer = { ...agent.offer, modes: { ...modes, currentModeId: modeId } };
  }
  for (const [category, value] of [
    ["model", input.model],
    ["thought_level", input.effort],
  ] as const) {
    const change = configChange(agent.offer, category, value);
    if (change !== undefined) {
      const changed = await connection.agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        ...change,
      });
      agent.offer = { ...agent.offer, configOptions: changed.configOptions };
    }
  }
}

function showUpdate(agent: AcpAgent, transcript: AcpTranscript, update: acp.SessionUpdate): void {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      if (update.content.type === "text") {
        transcript.text(update.content.text);
      }
      return;
    case "tool_call":
      transcript.line(acpToolLine(update));
      return;
    case "usage_update": {
      const cost = readUpdateCostUsd(update);
      if (cost !== undefined) {
        agent.costUsd = cost;
      }
      return;
    }
    default:
      return;
  }
}

/** The prompt's end; on a stop, `session/cancel` first, and `cut` when the agent does not end it in time. */
async function promptUntilCut(ctx: AcpTurnContext, sessionId: string, prompt: string): Promise<PromptEnd> {
  const { connection } = ctx.agent.process;
  const answered: Promise<PromptEnd> = connection.agent
    .request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: prompt }] })
    .then(
      (response): PromptEnd => ({ kind: "answered", response }),
      (error: unknown): PromptEnd => ({ kind: "failed", error }),
    );
  const aborted = new Promise<void>((resolve) => {
    if (ctx.signal.aborted) {
      resolve();
    }
    ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  const first = await Promise.race([answered, aborted.then(() => undefined)]);
  if (first !== undefined) {
    return first;
  }
  await connection.agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
  const grace = new AbortController();
  const settled = await Promise.race([
    answered,
    delay(ctx.cancelGraceMs, undefined, { ref: false, signal: grace.signal }).then(
      (): PromptEnd => ({ kind: "cut" }),
      (): PromptEnd => ({ kind: "cut" }),
    ),
  ]);
  grace.abort();
  return settled;
}

async function reportUsage(agent: AcpAgent, io: TurnIO, response: acp.PromptResponse | undefined) {
  const tokens = response === undefined ? undefined : readPromptUsage(response);
  const now = {
    inputTokens: tokens?.inputTokens ?? agent.counted.inputTokens,
    outputTokens: tokens?.outputTokens ?? agent.counted.outputTokens,
    costUsd: agent.costUsd,
  };
  const added = usageAdded(agent.counted, now);
  agent.counted = now;
  if ((added.inputTokens ?? 0) > 0 || (added.outputTokens ?? 0) > 0 || added.costUsd !== undefined) {
    await io.reportUsage(added);
  }
}

/** How long a closed connection waits for its process's exit, to say how the agent ended. */
const EXIT_AFTER_CLOSE_MS = 1_000;

/** An agent whose connection closed has usually exited too: its exit status tells more than the close. */
async function exitSoon(agent: AcpAgent): Promise<void> {
  if (agent.process.exit() !== undefined) {
    return;
  }
  const wait = new AbortController();
  await Promise.race([
    agent.process.exited,
    delay(EXIT_AFTER_CLOSE_MS, undefined, { ref: false, signal: wait.signal }).catch(() => undefined),
  ]);
  wait.abort();
}

const STOP_REASON_ERRORS: Readonly<Record<string, string>> = {
  refusal: "refused to go on (stop reason: refusal)",
  max_tokens: "reached its maximum number of output tokens (stop reason: max_tokens)",
  max_turn_requests:
    "reached its maximum number of model requests in one turn (stop reason: max_turn_requests)",
};

function outcomeOf(ctx: AcpTurnContext, end: PromptEnd): AcpTurnResult {
  const reply = ctx.transcript.reply();
  const partial = reply === "" ? {} : { reply };
  const cutShort = (agentLost: boolean): AcpTurnResult =>
    ctx.timedOut()
      ? {
          outcome: {
            status: "error",
            error: `${ctx.agentName} ran longer than its timeout (${ctx.timeoutSeconds} s): the turn was cancelled${agentLost ? " and the agent killed" : ""}.`,
            ...partial,
          },
          agentLost,
        }
      : { outcome: { status: "stopped", ...partial }, agentLost };
  if (end.kind === "cut") {
    return cutShort(true);
  }
  if (end.kind === "failed") {
    const exit = ctx.agent.process.exit();
    if (exit !== undefined || ctx.agent.process.connection.signal.aborted) {
      return {
        outcome: {
          status: "error",
          error: `${ctx.agentName} stopped during the turn: ${exitDescription(ctx.program, exit, ctx.agent.process.stderrTail())}`,
          ...partial,
        },
        agentLost: true,
      };
    }
    if (ctx.signal.aborted) {
      return cutShort(false);
    }
    if (isAuthRequired(end.error)) {
      const message = notSignedIn(ctx.agentName, errorText(end.error));
      ctx.signedOut(message);
      return { outcome: { status: "error", error: message, ...partial }, agentLost: false };
    }
    return {
      outcome: {
        status: "error",
        error: `${ctx.agentName} failed the prompt: ${errorText(end.error)}`,
        ...partial,
      },
      agentLost: false,
    };
  }
  const { stopReason } = end.response;
  if (stopReason === "end_turn") {
    return { outcome: { status: "done", reply }, agentLost: false };
  }
  if (stopReason === "cancelled") {
    return cutShort(false);
  }
  const why = STOP_REASON_ERRORS[stopReason] ?? `ended the turn with stop reason ${stopReason}`;
  return { outcome: { status: "error", error: `${ctx.agentName} ${why}.`, ...partial }, agentLost: false };
}

export function notSignedIn(agentName: string, detail: string): string {
  return `${agentName} is not signed in on this relay (${detail}): sign in with the agent's own login on the relay's machine, or give it an API key through its environment.`;
}
