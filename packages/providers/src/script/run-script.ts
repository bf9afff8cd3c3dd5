import type { Clock } from "@oar/core";
import type { QuestionAnswer, TurnInput, TurnIO, TurnOutcome } from "@oar/engine";
import { parseScript, type ScriptStep } from "./directives";

export function scriptProblemsMessage(problems: readonly string[]): string {
  return `The script has ${problems.length === 1 ? "a problem" : "problems"}, so none of it ran:\n${problems.join("\n")}`;
}

/** Resolves `true` after `ms` of the clock's time, `false` as soon as the signal aborts. */
export function sleepUnlessAborted(clock: Clock, ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(timer);
      resolve(false);
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function answerLine(answer: QuestionAnswer): string {
  return `answer: ${answer.answer ?? answer.choices?.join(", ") ?? ""}`;
}

/**
 * Runs a prompt's directives in order. The reply is the `!reply` text (several joined by
 * newlines), else `echo: ` and the plain lines, followed by the `answer:`, `!tool` result and
 * task lines in the order they came. Pieces are streamed as they come.
 */
export async function runScriptTurn(input: TurnInput, io: TurnIO): Promise<TurnOutcome> {
  const parsed = parseScript(input.prompt);
  if (!parsed.ok) {
    return { status: "error", error: scriptProblemsMessage(parsed.error) };
  }
  const { steps, plainText } = parsed.value;
  const replies: string[] = [];
  const lines: string[] = [];
  let streamed = false;
  const stream = (text: string) => {
    io.appendText(streamed ? `\n${text}` : text);
    streamed = true;
  };
  const hasReply = steps.some((step) => step.kind === "reply");
  const reply = () => [...(hasReply ? [replies.join("\n")] : [`echo: ${plainText}`]), ...lines].join("\n");
  const partial = () => (replies.length > 0 || lines.length > 0 ? { reply: reply() } : {});

  if (!hasReply) {
    stream(`echo: ${plainText}`);
  }
  for (const step of steps) {
    if (io.signal.aborted) {
      return { status: "stopped", ...partial() };
    }
    let ended: StepEnd | undefined;
    try {
      ended = await runStep(step, io, { replies, lines, stream });
    } catch (error) {
      // A question or tool call cut short by a stop rejects; the turn is then stopped, not failed.
      if (!io.signal.aborted) {
        throw error;
      }
      ended = { kind: "stopped" };
    }
    if (ended?.kind === "stopped") {
      return { status: "stopped", ...partial() };
    }
    if (ended?.kind === "error") {
      return { status: "error", error: ended.message, ...partial() };
    }
  }
  return { status: "done", reply: reply() };
}

interface StepState {
  readonly replies: string[];
  readonly lines: string[];
  stream(text: string): void;
}

/** How a step ended the turn early; nothing when the script goes on. */
type StepEnd = { readonly kind: "stopped" } | { readonly kind: "error"; readonly message: string };

/** A line of the reply after the `!reply` text: an answer, a tool result, a task's start or end. */
function addLine(state: StepState, line: string): void {
  state.lines.push(line);
  state.stream(line);
}

async function runStep(step: ScriptStep, io: TurnIO, state: StepState): Promise<StepEnd | undefined> {
  switch (step.kind) {
    case "reply":
      state.replies.push(step.text);
      state.stream(step.text);
      return undefined;
    case "sleep":
      return (await sleepUnlessAborted(io.clock, step.ms, io.signal)) ? undefined : { kind: "stopped" };
    case "error":
      return { kind: "error", message: step.message };
    case "ask":
      addLine(state, answerLine(await io.askUser({ text: step.question, options: step.options })));
      return undefined;
    case "tool":
      addLine(state, JSON.stringify(await io.callTool(step.call)));
      return undefined;
    case "task": {
      const taskId = await io.startTask({ kind: "shell", name: step.name, command: step.command });
      addLine(state, `task ${step.name} started: ${taskId}`);
      return undefined;
    }
    case "subagent": {
      const taskId = await io.startTask({ kind: "subagent", name: step.name, ms: step.ms });
      addLine(state, `subagent ${step.name} started: ${taskId}`);
      return undefined;
    }
    case "wait-task": {
      const end = await io.waitTask(step.name);
      addLine(
        state,
        `task ${step.name} ${end.status}${end.exitCode === null ? "" : ` (exit code ${end.exitCode})`}`,
      );
      return undefined;
    }
  }
}
