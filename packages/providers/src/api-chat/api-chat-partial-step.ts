import type { JSONValue, ModelMessage } from "ai";

interface ToolCallSeen {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

type ToolOutput =
  | { readonly type: "json"; readonly value: JSONValue }
  | { readonly type: "error-text"; readonly value: string };

/**
 * What the model said in a step that did not finish (the turn was stopped or timed out), as
 * messages to keep: its text, and its tool calls with their results. The API refuses a call
 * without its result, so a call the stop cut short gets `cutShort` as its (error) result.
 */
export interface PartialStep {
  text(delta: string): void;
  toolCall(call: ToolCallSeen): void;
  toolResult(toolCallId: string, output: unknown): void;
  toolError(toolCallId: string, error: unknown): void;
  /** A step began: the last one finished, and its messages came with it. */
  reset(): void;
  messages(cutShort: string): ModelMessage[];
}

export function createPartialStep(): PartialStep {
  let text = "";
  let calls: ToolCallSeen[] = [];
  let outputs = new Map<string, ToolOutput>();
  return {
    text(delta) {
      text += delta;
    },
    toolCall(call) {
      calls.push(call);
    },
    toolResult(toolCallId, output) {
      outputs.set(toolCallId, {
        type: "json",
        value: JSON.parse(JSON.stringify(output ?? null)) as JSONValue,
      });
    },
    toolError(toolCallId, error) {
      outputs.set(toolCallId, {
        type: "error-text",
        value: error instanceof Error ? error.message : String(error),
      });
    },
    reset() {
      text = "";
      calls = [];
      outputs = new Map();
    },
    messages(cutShort) {
      const answered = calls.map((call) => ({
        call,
        output: outputs.get(call.toolCallId) ?? { type: "error-text" as const, value: cutShort },
      }));
      const content = [
        ...(text.trim() === "" ? [] : [{ type: "text" as const, text }]),
        ...answered.map(({ call }) => ({ type: "tool-call" as const, ...call })),
      ];
      if (content.length === 0) {
        return [];
      }
      const assistant: ModelMessage = { role: "assistant", content };
      if (answered.length === 0) {
        return [assistant];
      }
      return [
        assistant,
        {
          role: "tool",
          content: answered.map(({ call, output }) => ({
            type: "tool-result" as const,
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output,
          })),
        },
      ];
    },
  };
}
