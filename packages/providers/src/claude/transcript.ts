import { RELAY_MCP_TOOL } from "./claude-invocation";

const MAX_TOOL_INPUT_CHARS = 200;

/** Shortens a tool's input to one line for a transcript line or a question card. */
export function shortInput(input: unknown, max = MAX_TOOL_INPUT_CHARS): string {
  const fields = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
  // A shell command or a file path says more than the JSON around it.
  const main = [fields.command, fields.file_path, fields.path, fields.url].find((v) => typeof v === "string");
  const text = (typeof main === "string" ? main : JSON.stringify(input ?? {})).replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The transcript line of a tool call: the relay's tool with its call, any other by name. */
export function toolUseLine(name: string, input: unknown): string {
  if (name === RELAY_MCP_TOOL) {
    const json = JSON.stringify(input ?? {});
    return `🛰️ ${name} ${json.length > MAX_TOOL_INPUT_CHARS ? `${json.slice(0, MAX_TOOL_INPUT_CHARS - 1)}…` : json}`;
  }
  return `⚙️ ${name}`;
}

/** Said in the transcript when the CLI could not connect to the relay's MCP server (a refused token, the relay down). */
export function relayServerUnavailableLine(status: string | undefined): string {
  return `⚠️ Claude Code could not connect to the relay's MCP server (status: ${status || "not listed"}), so ${RELAY_MCP_TOOL} is not available in this turn.`;
}

/** Said when the conversation to resume is gone and the turn starts a new one: the model has lost the context. */
export function lostConversationLine(claudeSessionId: string): string {
  return `⚠️ Claude Code no longer has this session's conversation (${claudeSessionId}), so this turn starts a new one without the earlier messages.`;
}

/** Streams a turn's pieces with `appendText`, each on its own line(s). */
export function createTranscript(appendText: (text: string) => void): { write(piece: string): void } {
  let started = false;
  return {
    write(piece) {
      if (piece === "") {
        return;
      }
      appendText(started ? `\n${piece}` : piece);
      started = true;
    },
  };
}
