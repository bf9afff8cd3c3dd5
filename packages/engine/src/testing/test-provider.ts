import type {
  Provider,
  ProviderInfo,
  QuestionAnswer,
  TurnInput,
  TurnIO,
  TurnOutcome,
  WorkerSession,
} from "../ports/provider";

const REMOTE_HEADER_START = "[Remote prompt from an agent on relay ";

/** A turn the test provider runs: what it got, and the handles to script it from a test. */
export interface TestTurn {
  readonly sessionId: string;
  readonly input: TurnInput;
  readonly io: TurnIO;
  /** What the worker returned (a held turn settles when the test releases it or the turn is stopped). */
  readonly outcome: Promise<TurnOutcome>;
  /** Ends a held turn `done`; the reply defaults to `echo: <prompt>`. */
  finish(reply?: string): void;
  /** Ends a held turn `error`. */
  fail(error: string, reply?: string): void;
  /** Streams reply text (read_session's `inFlight`). */
  write(text: string): void;
  /** Raises a blocking question card; the turn is `waiting` until it is answered. */
  ask(text: string, options?: readonly string[]): Promise<QuestionAnswer>;
}

/** A custom script for the next turns: return an outcome, or `undefined` to fall back to the prompt rules. */
export type TestTurnScript = (turn: TestTurn) => Promise<TurnOutcome | undefined> | TurnOutcome | undefined;

export interface TestProvider extends Provider {
  /** Every prompt the provider got, in order. */
  readonly prompts: readonly {
    readonly sessionId: string;
    readonly prompt: string;
    readonly model: string;
  }[];
  /** Every turn started, in order. */
  readonly turns: readonly TestTurn[];
  /** Workers started and closed so far, by session id (Kill session starts a new one). */
  readonly workersStarted: readonly string[];
  readonly workersClosed: readonly string[];
  /** From now on every turn stays open until the test calls `finish`/`fail` on it (or `release`). */
  hold(held?: boolean): void;
  /** Ends every open held turn `done` with its default reply. */
  release(): void;
  /** The next turn to start (or the oldest started turn nobody took yet). */
  nextTurn(): Promise<TestTurn>;
  /** Replaces how turns run; `undefined` restores the prompt rules. */
  script(run: TestTurnScript | undefined): void;
}

export interface TestProviderOptions {
  readonly info?: Partial<ProviderInfo>;
}

/**
 * A provider for engine tests (id "test", models test-1 (default) and test-2). A turn replies
 * `echo: <prompt>`, unless its prompt's first line says otherwise:
 * - `hold` — stays open until the test ends it (`nextTurn()` → `finish`/`fail`, or `release()`),
 * - `fail: MESSAGE` — ends `error` with MESSAGE; `throw: MESSAGE` — the worker throws,
 * - `ask: QUESTION | OPTION | OPTION` — raises a question card, then replies `answer: <answer>`,
 * - `tool: {JSON}` — calls relay_tool as the session and replies with the result's JSON.
 * A remote prompt's header line (R-HOP-03) is skipped: the rules read the line after it.
 */
export function createTestProvider(options: TestProviderOptions = {}): TestProvider {
  const prompts: { sessionId: string; prompt: string; model: string }[] = [];
  const turns: TestTurn[] = [];
  const workersStarted: string[] = [];
  const workersClosed: string[] = [];
  const untaken: TestTurn[] = [];
  const takers: ((turn: TestTurn) => void)[] = [];
  const open = new Set<TestTurn>();
  let holdAll = false;
  let custom: TestTurnScript | undefined;

  const announce = (turn: TestTurn) => {
    const taker = takers.shift();
    if (taker) {
      taker(turn);
    } else {
      untaken.push(turn);
    }
  };

  const runTurn = (session: WorkerSession, input: TurnInput, io: TurnIO): TestTurn => {
    let settle: (outcome: TurnOutcome) => void = () => {};
    const outcome = new Promise<TurnOutcome>((resolve) => {
      settle = resolve;
    });
    const echo = `echo: ${input.prompt}`;
    const end = (result: TurnOutcome) => {
      open.delete(turn);
      settle(result);
    };
    const turn: TestTurn = {
      sessionId: session.id,
      input,
      io,
      outcome,
      finish: (reply = echo) => end({ status: "done", reply }),
      fail: (error, reply) => end({ status: "error", error, ...(reply === undefined ? {} : { reply }) }),
      write: (text) => io.appendText(text),
      ask: (text, choices = []) => io.askUser({ text, options: choices }),
    };
    io.signal.addEventListener("abort", () => end({ status: "stopped" }), { once: true });
    return turn;
  };

  const byPrompt = async (turn: TestTurn): Promise<void> => {
    const { prompt } = turn.input;
    // A prompt from another relay's agent begins with the relay's header line (R-HOP-03): the
    // rules read the line after it.
    const [first = ""] = prompt.split("\n").filter((line) => !line.startsWith(REMOTE_HEADER_START));
    const [, keyword = "", rest = ""] = /^(fail|throw|ask|tool):\s*(.*)$/.exec(first.trim()) ?? [];
    if (holdAll || first.trim() === "hold") {
      open.add(turn);
      return;
    }
    switch (keyword) {
      case "fail":
        turn.fail(rest || "the test asked for an error");
        return;
      case "throw":
        throw new Error(rest || "the test worker threw");
      case "ask": {
        const [question = "", ...choices] = rest.split("|").map((part) => part.trim());
        const answer = await turn.ask(question, choices.filter(Boolean));
        turn.finish(`answer: ${answer.answer ?? answer.choices?.join(", ") ?? ""}`);
        return;
      }
      case "tool": {
        const result = await turn.io.callTool(JSON.parse(rest));
        turn.finish(JSON.stringify(result));
        return;
      }
      default:
        turn.finish();
    }
  };

  const provider: TestProvider = {
    info: {
      id: "test",
      label: "Test provider",
      models: [{ id: "test-1", default: true }, { id: "test-2" }],
      efforts: ["low", "high"],
      usageTracked: false,
      ...options.info,
    },
    prompts,
    turns,
    workersStarted,
    workersClosed,
    startWorker(session) {
      workersStarted.push(session.id);
      return {
        async runTurn(input, io) {
          prompts.push({ sessionId: session.id, prompt: input.prompt, model: input.model });
          const turn = runTurn(session, input, io);
          turns.push(turn);
          announce(turn);
          const scripted = custom ? await custom(turn) : undefined;
          if (scripted) {
            return scripted;
          }
          await byPrompt(turn);
          return turn.outcome;
        },
        async close() {
          workersClosed.push(session.id);
        },
      };
    },
    hold(held = true) {
      holdAll = held;
    },
    release() {
      for (const turn of [...open]) {
        turn.finish();
      }
    },
    nextTurn() {
      const turn = untaken.shift();
      if (turn) {
        return Promise.resolve(turn);
      }
      return new Promise((resolve) => {
        takers.push(resolve);
      });
    },
    script(run) {
      custom = run;
    },
  };
  return provider;
}
