import type { JsonObject, JsonValue } from "@oar/engine";

/** What a Claude session keeps between turns (and across the billing switch, §14.1). */
export interface ClaudeProviderState {
  /** The CLI's conversation, resumed by the next turn. */
  readonly claudeSessionId: string | null;
  /** Tools the owner allowed for this session from a question card. */
  readonly allowedTools: readonly string[];
}

export function readClaudeProviderState(value: JsonValue): ClaudeProviderState {
  const fields =
    value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : {};
  const id = fields.claudeSessionId;
  const tools = Array.isArray(fields.allowedTools) ? fields.allowedTools : [];
  return {
    claudeSessionId: typeof id === "string" && id !== "" ? id : null,
    allowedTools: tools.filter((tool): tool is string => typeof tool === "string"),
  };
}

export function claudeProviderStateJson(state: ClaudeProviderState): JsonObject {
  return {
    ...(state.claudeSessionId === null ? {} : { claudeSessionId: state.claudeSessionId }),
    allowedTools: [...state.allowedTools],
  };
}
