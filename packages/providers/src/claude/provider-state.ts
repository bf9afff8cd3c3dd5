import type { JsonObject, JsonValue } from "@oar/engine";
import type { ConversationCost } from "./conversation-cost";

/** What a Claude session keeps between turns (and across the billing switch, §14.1). */
export interface ClaudeProviderState {
  /** The CLI's conversation, resumed by the next turn. */
  readonly claudeSessionId: string | null;
  /** Tools the owner allowed for this session from a question card. */
  readonly allowedTools: readonly string[];
  /** The CLI's last running total, so the next run (after a restart too) counts only what it adds. */
  readonly conversationCost: ConversationCost | null;
}

type Fields = Readonly<Record<string, JsonValue | undefined>>;

const fieldsOf = (value: JsonValue | undefined): Fields =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : {};

export function readClaudeProviderState(value: JsonValue): ClaudeProviderState {
  const fields = fieldsOf(value);
  const id = fields.claudeSessionId;
  const tools = Array.isArray(fields.allowedTools) ? fields.allowedTools : [];
  return {
    claudeSessionId: typeof id === "string" && id !== "" ? id : null,
    allowedTools: tools.filter((tool): tool is string => typeof tool === "string"),
    conversationCost: readConversationCost(fields.conversationCost),
  };
}

function readConversationCost(value: JsonValue | undefined): ConversationCost | null {
  const { claudeSessionId, totalUsd } = fieldsOf(value);
  return typeof claudeSessionId === "string" &&
    claudeSessionId !== "" &&
    typeof totalUsd === "number" &&
    Number.isFinite(totalUsd) &&
    totalUsd >= 0
    ? { claudeSessionId, totalUsd }
    : null;
}

export function claudeProviderStateJson(state: ClaudeProviderState): JsonObject {
  return {
    ...(state.claudeSessionId === null ? {} : { claudeSessionId: state.claudeSessionId }),
    allowedTools: [...state.allowedTools],
    ...(state.conversationCost === null ? {} : { conversationCost: { ...state.conversationCost } }),
  };
}
