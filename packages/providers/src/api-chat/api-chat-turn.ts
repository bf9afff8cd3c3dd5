import type { TurnInput, TurnIO, TurnOutcome } from "@oar/engine";
import { RELAY_TOOL_DESCRIPTION, RELAY_TOOL_NAME, relayToolInputJsonSchema } from "@oar/schema";
import { type LanguageModel, type ModelMessage, stepCountIs, streamText } from "ai";
import { createAcpTranscript } from "../acp/acp-transcript";
import { relayToolLine } from "../shared/relay-tool-line";
import type { ChatTurn } from "./api-chat-history";
import { turnOutcome } from "./api-chat-outcome";
import { createPartialStep } from "./api-chat-partial-step";
import { costOf, type ModelPrice } from "./api-chat-prices";
import { CUT_SHORT_RESULT, relayToolSet, runLegacyNameAsRelayTool } from "./api-chat-relay-tool";
import { apiChatSystemPrompt } from "./api-chat-system-prompt";
import { startModelTimer } from "./api-chat-timer";
import type { ApiChatVendor } from "./api-chat-vendors";
import { droppedTurnsLine, estimateTokens, fitWindow, windowTokensOf } from "./api-chat-window";

// What goes with every request besides the conversation: the tool's description and schema.
const TOOL_TOKENS = estimateTokens({ RELAY_TOOL_DESCRIPTION, relayToolInputJsonSchema });

export interface ApiChatTurnOptions {
  readonly vendor: ApiChatVendor;
  /** The chat model of the turn, on the vendor's API with the owner's key. */
  readonly model: LanguageModel;
  /** Where the API is, for an error saying it could not be reached. */
  readonly baseUrl: string;
  readonly price: ModelPrice | undefined;
  readonly session: { readonly id: string; readonly title: string };
  /** The conversation so far, oldest turn first. */
  readonly history: readonly ChatTurn[];
  readonly maxSteps: number;
  readonly timeoutSeconds: number;
  /** Aborted when the turn is stopped or the worker closed. */
  readonly signal: AbortSignal;
}

export interface ApiChatTurnResult {
  readonly outcome: TurnOutcome;
  /** The conversation to keep for the next turns. */
  readonly history: readonly ChatTurn[];
}

function toolCallLine(toolName: string, input: unknown): string {
  return toolName === RELAY_TOOL_NAME
    ? relayToolLine(input)
    : `⚙️ ${toolName} (not run: ${RELAY_TOOL_NAME} is the only tool)`;
}

/**
 * One turn of an API model (DESIGN §5): the relay runs the agent loop itself with the AI SDK, the
 * model asking, relay_tool answering, until the model answers without a call or `maxSteps` model
 * calls were made. The reply streams through `io.appendText`; the conversation comes back to be kept.
 */
export async function runApiChatTurn(
  options: ApiChatTurnOptions,
  input: TurnInput,
  io: TurnIO,
): Promise<ApiChatTurnResult> {
  const { vendor } = options;
  const system = apiChatSystemPrompt({
    title: options.session.title,
    sessionId: options.session.id,
    mode: input.mode,
  });
  const prompt: ModelMessage = { role: "user", content: input.prompt };
  const windowTokens = windowTokensOf(vendor, input.settings);
  const fit = fitWindow({
    turns: options.history,
    prompt: [prompt],
    fixedTokens: estimateTokens(system) + TOOL_TOKENS,
    windowTokens,
  });
  const transcript = createAcpTranscript((text) => io.appendText(text));
  if (fit.dropped > 0) {
    transcript.warn(droppedTurnsLine(fit.dropped, windowTokens));
  }

  const stop = new AbortController();
  let timedOut = false;
  const forwardStop = () => stop.abort();
  options.signal.addEventListener("abort", forwardStop, { once: true });
  if (options.signal.aborted) {
    stop.abort();
  }
  const timer = startModelTimer(io.clock, options.timeoutSeconds * 1000, () => {
    timedOut = true;
    stop.abort();
  });

  const done = {
    messages: [] as ModelMessage[],
    steps: 0,
    inputTokens: 0,
    outputTokens: 0,
    wantsTools: false,
  };
  const partial = createPartialStep();
  let failure: unknown;
  let aborted = false;
  try {
    const result = streamText({
      model: options.model,
      system,
      messages: [...fit.turns.flat(), prompt],
      tools: relayToolSet({ callTool: (call) => io.callTool(call), signal: stop.signal, timer }),
      experimental_repairToolCall: runLegacyNameAsRelayTool,
      stopWhen: stepCountIs(options.maxSteps),
      // A retry would sleep on real time, out of the relay clock's reach; the turn's error says what failed.
      maxRetries: 0,
      abortSignal: stop.signal,
      // Errors come as stream parts, read below; the SDK would otherwise print them.
      onError: () => undefined,
      onStepFinish: (step) => {
        done.messages = step.response.messages;
        done.steps += 1;
        done.inputTokens += step.usage.inputTokens ?? 0;
        done.outputTokens += step.usage.outputTokens ?? 0;
        done.wantsTools = step.finishReason === "tool-calls";
      },
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case "start-step":
        case "finish-step":
          partial.reset();
          break;
        case "text-delta":
          transcript.text(part.text);
          partial.text(part.text);
          break;
        case "tool-call":
          transcript.line(toolCallLine(part.toolName, part.input));
          partial.toolCall({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
          break;
        case "tool-result":
          partial.toolResult(part.toolCallId, part.output);
          break;
        case "tool-error":
          partial.toolError(part.toolCallId, part.error);
          break;
        case "error":
          failure ??= part.error;
          break;
        case "abort":
          aborted = true;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    failure ??= error;
  } finally {
    timer.stop();
    options.signal.removeEventListener("abort", forwardStop);
  }

  // A stop that came after the last answer changes nothing: the turn is done.
  const stopped = aborted || (failure !== undefined && stop.signal.aborted);
  const said = [...done.messages, ...partial.messages(CUT_SHORT_RESULT)];
  // A prompt the API never took leaves the conversation as it was; anything else is kept.
  const tookNothing = done.steps === 0 && said.length === 0 && !stopped;
  const history = tookNothing ? fit.turns : [...fit.turns, [prompt, ...said]];
  if (done.steps > 0) {
    const costUsd = costOf(options.price, done);
    await io.reportUsage({
      inputTokens: done.inputTokens,
      outputTokens: done.outputTokens,
      ...(costUsd === undefined ? {} : { costUsd }),
    });
  }
  const outcome = turnOutcome(
    options,
    {
      stopped,
      timedOut,
      failure,
      outOfSteps: done.wantsTools && done.steps >= options.maxSteps,
    },
    transcript.reply(),
  );
  return { history, outcome };
}
