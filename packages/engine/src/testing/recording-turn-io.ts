import type { Clock } from "@oar/core";
import type { JsonValue } from "../ports/json";
import type { AgentAccess, QuestionAnswer, TaskEnd, TaskSpec, TurnIO, TurnUsage } from "../ports/provider";

export interface RecordingTurnIOOptions {
  readonly clock: Clock;
  /** What `askUser` answers; default `{ answer: "Yes" }`. */
  readonly answer?: QuestionAnswer;
  /** What `callTool` answers; default `{ ok: true, n }` with n the call's number. */
  readonly toolResult?: (call: unknown) => unknown;
  /** What `agentAccess` gives; default `null`. */
  readonly access?: AgentAccess | null;
  /** How a waited task ends; default finished with exit code 0. */
  readonly taskEnd?: (name: string) => Promise<TaskEnd>;
}

/** A TurnIO that records what a worker did, for a provider's own tests (no relay behind it). */
export interface RecordingTurnIO extends TurnIO {
  readonly controller: AbortController;
  readonly streamed: string[];
  readonly questions: { readonly text: string; readonly options: readonly string[] }[];
  readonly toolCalls: unknown[];
  readonly savedStates: JsonValue[];
  readonly usages: TurnUsage[];
  readonly tasks: TaskSpec[];
  readonly waitedTasks: string[];
}

export function createRecordingTurnIO(options: RecordingTurnIOOptions): RecordingTurnIO {
  const controller = new AbortController();
  const io: RecordingTurnIO = {
    controller,
    signal: controller.signal,
    clock: options.clock,
    streamed: [],
    questions: [],
    toolCalls: [],
    savedStates: [],
    usages: [],
    tasks: [],
    waitedTasks: [],
    appendText: (text) => {
      io.streamed.push(text);
    },
    askUser: async (question) => {
      io.questions.push(question);
      return options.answer ?? { answer: "Yes" };
    },
    callTool: async (call) => {
      io.toolCalls.push(call);
      return options.toolResult ? options.toolResult(call) : { ok: true, n: io.toolCalls.length };
    },
    agentAccess: async () => options.access ?? null,
    saveProviderState: async (state) => {
      io.savedStates.push(state);
    },
    reportUsage: async (usage) => {
      io.usages.push(usage);
    },
    startTask: async (task) => {
      io.tasks.push(task);
      return `task_${io.tasks.length}`;
    },
    waitTask: async (name) => {
      io.waitedTasks.push(name);
      return options.taskEnd
        ? options.taskEnd(name)
        : { taskId: `task_${name}`, status: "finished", exitCode: 0 };
    },
  };
  return io;
}
