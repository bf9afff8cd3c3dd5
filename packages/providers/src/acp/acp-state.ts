import type { JsonObject, JsonValue } from "@oar/engine";

/** What an ACP session keeps between turns and across restarts: the agent's own session id. */
export interface AcpProviderState {
  readonly acpSessionId: string | null;
}

export function readAcpProviderState(value: JsonValue): AcpProviderState {
  const id =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as JsonObject).acpSessionId
      : undefined;
  return { acpSessionId: typeof id === "string" && id !== "" ? id : null };
}

export function acpProviderStateJson(state: AcpProviderState): JsonObject {
  return state.acpSessionId === null ? {} : { acpSessionId: state.acpSessionId };
}
