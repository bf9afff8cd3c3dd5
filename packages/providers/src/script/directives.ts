import { err, ok, type Result } from "@oar/core";

/** One step of the built-in `script` agent (DESIGN §5), run in the order the prompt gives them. */
export type ScriptStep =
  | { readonly kind: "reply"; readonly text: string }
  | { readonly kind: "sleep"; readonly ms: number }
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "ask"; readonly question: string; readonly options: readonly string[] }
  | { readonly kind: "task"; readonly name: string; readonly command: string }
  | { readonly kind: "wait-task"; readonly name: string }
  | { readonly kind: "subagent"; readonly name: string; readonly ms: number }
  | { readonly kind: "tool"; readonly call: Readonly<Record<string, unknown>> };

export interface ScriptPlan {
  readonly steps: readonly ScriptStep[];
  /** The prompt's lines that are not directives, joined by a space: what `echo:` repeats. */
  readonly plainText: string;
}

// A turn sleeping longer than this is a typo, not a test: the relay's longest wait is one hour.
export const MAX_SCRIPT_SLEEP_MS = 3_600_000;

const DIRECTIVE_RE = /^!([a-z-]+)(?:\s+(.*))?$/;

/** Reads a prompt into the script agent's plan; every bad directive is reported, by line. */
export function parseScript(prompt: string): Result<ScriptPlan, string[]> {
  const steps: ScriptStep[] = [];
  const plain: string[] = [];
  const problems: string[] = [];
  prompt.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed.startsWith("!")) {
      if (trimmed !== "") {
        plain.push(trimmed);
      }
      return;
    }
    const step = parseDirective(trimmed);
    if (typeof step === "string") {
      problems.push(`line ${index + 1}: ${step}`);
    } else {
      steps.push(step);
    }
  });
  return problems.length > 0 ? err(problems) : ok({ steps, plainText: plain.join(" ") });
}

function parseDirective(line: string): ScriptStep | string {
  const match = DIRECTIVE_RE.exec(line);
  const name = match?.[1] ?? line.slice(1).split(/\s/)[0];
  const rest = (match?.[2] ?? "").trim();
  switch (name) {
    case "reply":
      return { kind: "reply", text: rest };
    case "error":
      return { kind: "error", message: rest || "the script asked for an error" };
    case "sleep": {
      const ms = parseMs(rest);
      return ms === undefined
        ? `!sleep takes milliseconds from 0 to ${MAX_SCRIPT_SLEEP_MS} (got "${rest}")`
        : { kind: "sleep", ms };
    }
    case "ask": {
      const [question = "", ...options] = rest.split("|").map((part) => part.trim());
      return question === ""
        ? "!ask needs a question: !ask QUESTION | OPTION | OPTION"
        : { kind: "ask", question, options: options.filter(Boolean) };
    }
    case "task": {
      const at = rest.indexOf("::");
      const taskName = at < 0 ? "" : rest.slice(0, at).trim();
      const command = at < 0 ? "" : rest.slice(at + 2).trim();
      return taskName && command
        ? { kind: "task", name: taskName, command }
        : "!task needs a name and a command: !task NAME :: SHELL COMMAND";
    }
    case "wait-task":
      return rest ? { kind: "wait-task", name: rest } : "!wait-task needs the task's name";
    case "subagent": {
      const [agentName = "", msText = ""] = rest.split(/\s+/);
      const ms = parseMs(msText);
      return agentName && ms !== undefined
        ? { kind: "subagent", name: agentName, ms }
        : "!subagent needs a name and milliseconds: !subagent NAME MS";
    }
    case "tool":
      return parseToolCall(rest);
    default:
      return `unknown directive !${name}; the script agent knows !reply, !sleep, !error, !ask, !task, !wait-task, !subagent and !tool`;
  }
}

function parseMs(text: string): number | undefined {
  if (!/^\d+$/.test(text)) {
    return undefined;
  }
  const ms = Number(text);
  return ms <= MAX_SCRIPT_SLEEP_MS ? ms : undefined;
}

function parseToolCall(json: string): ScriptStep | string {
  try {
    const call: unknown = JSON.parse(json);
    if (call === null || typeof call !== "object" || Array.isArray(call)) {
      return '!tool takes one JSON object, for example !tool {"action":"list_sessions","relay":"this"}';
    }
    return { kind: "tool", call: call as Record<string, unknown> };
  } catch (cause) {
    return `!tool takes one JSON object: ${(cause as Error).message}`;
  }
}
