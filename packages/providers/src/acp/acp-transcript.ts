import type * as acp from "@agentclientprotocol/sdk";
import { shortInput } from "../claude/transcript";
import { relayToolLine } from "../shared/relay-tool-line";

/**
 * Whether a tool call is the relay's own `relay_tool` (Copilot names it `relay-relay_tool`, other
 * agents `mcp__relay__relay_tool` or `relay_tool`): it is shown with its call and needs no card.
 */
export function isRelayToolCall(toolCall: {
  readonly title?: string | null;
  readonly name?: string | null;
}): boolean {
  return [toolCall.name, toolCall.title].some(
    (name) => typeof name === "string" && /relay_tool\b/.test(name),
  );
}

/** The transcript line of a tool call: 🛰️ with its call for relay_tool, ⚙️ and its title for the rest. */
export function acpToolLine(toolCall: acp.ToolCall): string {
  if (isRelayToolCall(toolCall)) {
    return relayToolLine(toolCall.rawInput);
  }
  const title = toolCall.title.trim() || toolCall.name || toolCall.kind || "tool";
  const input = toolCall.rawInput === undefined ? "" : shortInput(toolCall.rawInput);
  return input === "" || title.includes(input) ? `⚙️ ${title}` : `⚙️ ${title} (${input})`;
}

/**
 * A turn's text as it streams: the agent's message chunks run on, each tool call and each note
 * on a line of its own. `reply()` is the agent's message text and the notes, without tool lines.
 */
export interface AcpTranscript {
  text(chunk: string): void;
  line(line: string): void;
  note(line: string): void;
  /** A line that leads the reply (the agent lost the conversation's context). */
  warn(line: string): void;
  reply(): string;
}

export function createAcpTranscript(appendText: (text: string) => void): AcpTranscript {
  const messages: string[] = [];
  const notes: string[] = [];
  const warnings: string[] = [];
  let current = "";
  let written = false;
  let afterLine = false;
  const writeLine = (line: string) => {
    if (current.trim() !== "") {
      messages.push(current.trim());
    }
    current = "";
    appendText(written ? `\n${line}` : line);
    written = true;
    afterLine = true;
  };
  return {
    text(chunk) {
      if (chunk === "") {
        return;
      }
      appendText(afterLine ? `\n${chunk}` : chunk);
      current += chunk;
      written = true;
      afterLine = false;
    },
    line: writeLine,
    note(line) {
      writeLine(line);
      notes.push(line);
    },
    warn(line) {
      writeLine(line);
      warnings.push(line);
    },
    reply() {
      const last = current.trim();
      return [...warnings, ...messages, ...(last === "" ? [] : [last]), ...notes].join("\n");
    },
  };
}
