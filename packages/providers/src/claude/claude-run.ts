import type { ClaudeResult } from "./claude-events";
import { readClaudeEvent } from "./claude-events";
import { type ClaudeExit, runClaudeProcess } from "./claude-process";
import { createJsonLineReader } from "./stream-json";
import { relayServerUnavailableLine, toolUseLine } from "./transcript";

export interface ClaudeRunOptions {
  readonly bin: string;
  readonly args: readonly string[];
  readonly cwd: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly prompt: string;
  /** Whether the relay's MCP server was given: the transcript says so when the CLI could not use it. */
  readonly withRelayTool: boolean;
  readonly signal: AbortSignal;
  /** Gets each piece of reply text and each tool call's transcript line, as they come. */
  readonly write: (piece: string) => void;
}

/** What one `claude -p` run gave: its conversation's id, its result line(s), how it ended. */
export interface ClaudeRun {
  readonly sessionId: string | undefined;
  /** The run's result lines as one (see `mergeResults`); `undefined` when there was none. */
  readonly result: ClaudeResult | undefined;
  /** The reply text the run streamed, for when the result line has none. */
  readonly text: string;
  readonly exit: ClaudeExit;
}

export async function runClaudeOnce(options: ClaudeRunOptions): Promise<ClaudeRun> {
  let sessionId: string | undefined;
  const results: ClaudeResult[] = [];
  const texts: string[] = [];
  const reader = createJsonLineReader({
    onJson: (line) => {
      const event = readClaudeEvent(line);
      if (event?.kind === "init") {
        sessionId = event.sessionId;
        // Connected without the tool is the relay's choice (relay_tool not enabled for the session).
        const relayStatus = event.mcpServers.relay;
        if (options.withRelayTool && relayStatus !== "connected") {
          options.write(relayServerUnavailableLine(relayStatus));
        }
      } else if (event?.kind === "assistant") {
        for (const block of event.blocks) {
          if (block.type === "text") {
            texts.push(block.text);
            options.write(block.text);
          } else {
            options.write(toolUseLine(block.name, block.input));
          }
        }
      } else if (event?.kind === "result") {
        results.push(event.result);
        sessionId = event.result.sessionId ?? sessionId;
      }
    },
  });
  const exit = await runClaudeProcess({
    bin: options.bin,
    args: options.args,
    cwd: options.cwd,
    env: options.env,
    stdin: options.prompt,
    signal: options.signal,
    onStdout: reader.push,
  });
  reader.end();
  return { sessionId, result: mergeResults(results), text: texts.join("\n"), exit };
}

/** Why a run failed, in words for the turn's error; `undefined` when it succeeded. */
export function runFailure(run: ClaudeRun): string | undefined {
  const { result, exit } = run;
  const stderr = exit.stderrTail === "" ? "" : `\nLast lines of its stderr:\n${exit.stderrTail}`;
  if (exit.spawnError !== undefined) {
    return `Claude Code could not start: ${exit.spawnError}`;
  }
  if (result?.isError) {
    const detail = result.text || result.errors.join("; ") || result.subtype || "no message";
    // The CLI often prints the same words on stderr; they are worth repeating only when they add to them.
    const more = exit.stderrTail.trim() === detail.trim() ? "" : stderr;
    return `Claude Code reported an error: ${detail}${more}`;
  }
  if (result !== undefined) {
    return undefined;
  }
  const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  return `Claude Code ${how} before it finished the turn (no result line).${stderr}`;
}

/** The run failed because the CLI has no conversation of that id to resume (its store was wiped, or the cwd moved). */
export function lostConversation(run: ClaudeRun): boolean {
  return (
    run.result?.isError === true &&
    run.result.errors.some((error) => error.startsWith("No conversation found"))
  );
}

/**
 * A run writes a result line per answer: one for the prompt, and one more each time a
 * background task the model started ends and the CLI, which waits for them before it exits,
 * wakes the model with it. Their usage counts since the line before; the cost is the
 * conversation's running total so far (earlier runs included). The last line says whether the run failed.
 */
export function mergeResults(results: readonly ClaudeResult[]): ClaudeResult | undefined {
  const last = results.at(-1);
  if (last === undefined) {
    return undefined;
  }
  const sum = (pick: (r: ClaudeResult) => number | undefined) =>
    results.some((r) => pick(r) !== undefined) ? results.reduce((n, r) => n + (pick(r) ?? 0), 0) : undefined;
  return {
    ...last,
    text: last.isError
      ? last.text
      : results
          .filter((r) => !r.isError && r.text !== "")
          .map((r) => r.text)
          .join("\n"),
    inputTokens: sum((r) => r.inputTokens),
    outputTokens: sum((r) => r.outputTokens),
    denials: results.flatMap((r) => r.denials),
  };
}
