/** The tool's name (R-NAME-01) and the legacy name still executed but never listed (R-NAME-05, R-NAME-07). */
export const RELAY_TOOL_NAME = "relay_tool";
export const LEGACY_RELAY_TOOL_NAME = "remote_relay";

/** What an agent is told relay_tool is for: the MCP server's listing and an API model's tool. */
export const RELAY_TOOL_DESCRIPTION =
  "Work with other agent sessions on this relay and on paired relays: list and read sessions, " +
  "prompt them (send), start new ones (create_session), wait for their replies, stop or archive " +
  "them, answer their questions, watch them (subscribe), schedule prompts, and ask the user " +
  "non-blocking questions. Pass `action` and that action's arguments; start with list_relays or relay_info.";
