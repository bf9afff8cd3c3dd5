/** The tool's name (R-NAME-01) and the legacy name still executed but never listed (R-NAME-05, R-NAME-07). */
export const RELAY_TOOL_NAME = "relay_tool";
export const LEGACY_RELAY_TOOL_NAME = "remote_relay";
