import type { JsonObject, JsonValue } from "@oar/engine";
import { type ModelMessage, modelMessageSchema } from "ai";

/** One turn of the conversation: the user's prompt, then the model's answers and the tools' results. */
export type ChatTurn = readonly ModelMessage[];

/**
 * The conversation a session keeps between turns and across relay restarts (its provider state,
 * `{ "turns": [[message, …], …] }`), as the AI SDK's ModelMessages. Turns are kept whole, so the
 * window drops the oldest turn without leaving a tool call apart from its result.
 */
export function readChatHistory(value: JsonValue): readonly ChatTurn[] {
  // Another provider's state (the session switched providers) or a damaged one: start afresh.
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return [];
  }
  const turns = (value as JsonObject).turns;
  if (!Array.isArray(turns) || !turns.every(isTurn)) {
    return [];
  }
  return turns as unknown as readonly ChatTurn[];
}

function isTurn(turn: unknown): boolean {
  return (
    Array.isArray(turn) &&
    turn.length > 0 &&
    (turn[0] as { role?: unknown }).role === "user" &&
    turn.every((message) => modelMessageSchema.safeParse(message).success)
  );
}

export function chatHistoryJson(turns: readonly ChatTurn[]): JsonObject {
  // A JSON round trip: what is kept is what a restarted relay reads back.
  return { turns: JSON.parse(JSON.stringify(turns.map(withoutReasoning))) as JsonValue };
}

/**
 * A turn without the model's reasoning: it is not part of what the model said, DeepSeek's API
 * refuses a `reasoning_content` sent back in a later turn, and it would fill the window.
 */
function withoutReasoning(turn: ChatTurn): ChatTurn {
  return turn.flatMap((message): ModelMessage[] => {
    if (message.role !== "assistant" || typeof message.content === "string") {
      return [message];
    }
    const content = message.content.filter((part) => part.type !== "reasoning");
    return content.length === 0 ? [] : [{ ...message, content }];
  });
}
