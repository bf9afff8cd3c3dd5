import { RELAY_TOOL_NAME } from "@oar/schema";

const MAX_RELAY_CALL_CHARS = 200;

/** The transcript line of a relay_tool call: 🛰️, the tool's name and its input's JSON, cut at 200 characters. */
export function relayToolLine(input: unknown): string {
  const json = JSON.stringify(input ?? {});
  const call = json.length > MAX_RELAY_CALL_CHARS ? `${json.slice(0, MAX_RELAY_CALL_CHARS - 1)}…` : json;
  return `🛰️ ${RELAY_TOOL_NAME} ${call}`;
}
