import type { TurnInput, TurnIO, TurnOutcome } from "@oar/engine";
import { type ClaudeBilling, claudeArgs, claudeEnv } from "./claude-invocation";
import { lostConversation, runClaudeOnce, runFailure } from "./claude-run";
import { goOnPrompt } from "./permission-cards";
import { decideDenials } from "./permission-decisions";
import { type ClaudeProviderState, claudeProviderStateJson } from "./provider-state";
import { countRun } from "./run-cost";
import { createTranscript, lostConversationLine } from "./transcript";
import { createTurnReply } from "./turn-reply";

export interface ClaudeTurnContext {
  readonly bin: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly billing: ClaudeBilling;
  readonly cwd: string | null;
  /** The worker's state; the turn updates it as the CLI reports its session and the owner allows tools. */
  state: ClaudeProviderState;
  /** Aborted by a stop (the turn's signal) or by closing the worker. */
  readonly signal: AbortSignal;
  /** Tools the CLI may use without a card, except in plan mode (a clone's edits and shell). */
  readonly toolsWithoutCard?: readonly string[];
}

/**
 * Runs a turn as one `claude -p` run, plus one more (resumed) run each time the owner allows
 * tools the CLI was refused: in `-p` mode the CLI cannot ask, so it refuses them and lists them
 * in its result.
 */
export async function runClaudeTurn(
  ctx: ClaudeTurnContext,
  input: TurnInput,
  io: TurnIO,
): Promise<TurnOutcome> {
  const access = await io.agentAccess();
  const env = claudeEnv(ctx.env, ctx.billing, access);
  const transcript = createTranscript((text) => io.appendText(text));
  const reply = createTurnReply(transcript.write);
  const asked = new Set<string>();
  let prompt = input.prompt;
  let startedOver = false;

  // Plan mode changes nothing, so it gets none of them.
  const withoutCard = input.mode === "plan" ? [] : (ctx.toolsWithoutCard ?? []);
  const allowedTools = () => [...withoutCard, ...ctx.state.allowedTools];

  for (;;) {
    if (ctx.signal.aborted) {
      return { status: "stopped", ...reply.partial() };
    }
    const run = await runClaudeOnce({
      bin: ctx.bin,
      args: claudeArgs({
        model: input.model,
        effort: input.effort,
        mode: input.mode,
        resume: ctx.state.claudeSessionId,
        withRelayTool: access !== null,
        allowedTools: allowedTools(),
      }),
      cwd: input.cwd ?? ctx.cwd ?? undefined,
      env,
      prompt,
      withRelayTool: access !== null,
      signal: ctx.signal,
      write: transcript.write,
    });
    const counted = countRun(ctx.state, run);
    // Counted before the new total is kept: a failure between the two counts this run again with
    // the next one rather than never, which keeps the monthly cap on the safe side.
    if (run.result !== undefined) {
      const { inputTokens, outputTokens } = run.result;
      await io.reportUsage({ costUsd: counted.costUsd, inputTokens, outputTokens });
    }
    if (counted.state !== ctx.state) {
      ctx.state = counted.state;
      await io.saveProviderState(claudeProviderStateJson(ctx.state));
    }
    if (run.exit.aborted) {
      return { status: "stopped", ...reply.partial(run.text) };
    }
    // A session whose conversation is gone would fail every turn from now on; it starts over instead.
    if (lostConversation(run) && ctx.state.claudeSessionId !== null && !startedOver) {
      startedOver = true;
      reply.warn(lostConversationLine(ctx.state.claudeSessionId));
      ctx.state = { ...ctx.state, claudeSessionId: null };
      continue;
    }
    const failure = runFailure(run);
    if (failure !== undefined) {
      return { status: "error", error: failure, ...reply.partial(run.text) };
    }
    reply.addText(run.result?.text || run.text);

    const allowed = await decideDenials(io, {
      denials: run.result?.denials ?? [],
      mode: input.mode,
      allowedTools: allowedTools(),
      asked,
      reply,
      signal: ctx.signal,
    });
    if (allowed === "stopped") {
      return { status: "stopped", ...reply.partial() };
    }
    if (allowed.length === 0) {
      return { status: "done", reply: reply.text() };
    }
    ctx.state = { ...ctx.state, allowedTools: [...ctx.state.allowedTools, ...allowed] };
    await io.saveProviderState(claudeProviderStateJson(ctx.state));
    prompt = goOnPrompt(allowed);
  }
}
