/** The result object of a relay_tool call: an ok envelope or an error envelope (R-CALL-03/04). */
export type ToolResult = { readonly ok: boolean; readonly [field: string]: unknown };

export interface ExecuteOptions {
  /** Under which name the call arrived; `remote_relay` runs the same way (R-NAME-05). */
  readonly toolName?: "relay_tool" | "remote_relay";
  /** Aborted when the client goes away: long waits end early. */
  readonly signal?: AbortSignal;
}
