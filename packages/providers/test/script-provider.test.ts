import { FakeClock } from "@oar/core/testing";
import type { QuestionAnswer, TurnInput, TurnOutcome } from "@oar/engine";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { createExternalProvider, createScriptProvider } from "../src";

const session = {
  id: "ses_1",
  title: "Script",
  model: "script-1",
  effort: null,
  mode: "agent" as const,
  cwd: null,
  providerState: null,
};

function turnInput(prompt: string): TurnInput {
  return { turnId: "trn_1", prompt, model: "script-1", effort: null, mode: "agent", cwd: null };
}

/** Runs one script turn against a hand-made TurnIO that records what the worker did. */
function runScript(prompt: string, options: { answer?: QuestionAnswer } = {}) {
  const clock = new FakeClock();
  const io = createRecordingTurnIO({ clock, ...(options.answer ? { answer: options.answer } : {}) });
  const worker = createScriptProvider().startWorker(session);
  if (!worker) {
    throw new Error("The script provider always starts a worker.");
  }
  const outcome: Promise<TurnOutcome> = worker.runTurn(turnInput(prompt), io);
  return {
    outcome,
    clock,
    controller: io.controller,
    streamed: io.streamed,
    questions: io.questions,
    toolCalls: io.toolCalls,
    io,
  };
}

describe("script provider (DESIGN §5)", () => {
  it("offers models script-1 (default) and script-2, efforts, and untracked usage", () => {
    expect(createScriptProvider().info).toEqual({
      id: "script",
      label: "Script (built-in)",
      models: [{ id: "script-1", default: true }, { id: "script-2" }],
      efforts: ["low", "medium", "high"],
      usageTracked: false,
    });
  });

  it("echoes the prompt's plain lines joined by a space when there is no !reply", async () => {
    const run = runScript("Check the build.\n\n  and report  ");
    expect(await run.outcome).toEqual({ status: "done", reply: "echo: Check the build. and report" });
    expect(run.streamed).toEqual(["echo: Check the build. and report"]);
  });

  it("replies with the !reply text, several joined by newlines, instead of the echo", async () => {
    const run = runScript("ignored plain line\n!reply First.\n!reply Second.");
    expect(await run.outcome).toEqual({ status: "done", reply: "First.\nSecond." });
    expect(run.streamed.join("")).toBe("First.\nSecond.");
  });

  it("sleeps on the turn's clock (!sleep MS)", async () => {
    const run = runScript("!sleep 1000\n!reply woke");
    let outcome: TurnOutcome | undefined;
    void run.outcome.then((o) => {
      outcome = o;
    });
    await run.clock.advanceAsync(999);
    expect(outcome).toBeUndefined();
    await run.clock.advanceAsync(1);
    expect(outcome).toEqual({ status: "done", reply: "woke" });
  });

  it("ends the turn stopped when the signal aborts during !sleep, keeping what it wrote", async () => {
    const run = runScript("!reply before\n!sleep 60000\n!reply after");
    await run.clock.advanceAsync(10);
    run.controller.abort();
    expect(await run.outcome).toEqual({ status: "stopped", reply: "before" });
    expect(run.clock.pendingTimers()).toBe(0);
  });

  it("ends the turn error with the !error text and runs nothing after it", async () => {
    const run = runScript('!reply partial\n!error the deploy failed\n!tool {"action":"usage"}');
    expect(await run.outcome).toEqual({ status: "error", error: "the deploy failed", reply: "partial" });
    expect(run.toolCalls).toEqual([]);
  });

  it("asks a blocking question (!ask) and adds the answer line to the reply", async () => {
    const run = runScript("Ship it?\n!ask Deploy to production? | Deploy | Wait", {
      answer: { answer: "Deploy", choices: ["Deploy"] },
    });
    expect(await run.outcome).toEqual({ status: "done", reply: "echo: Ship it?\nanswer: Deploy" });
    expect(run.questions).toEqual([{ text: "Deploy to production?", options: ["Deploy", "Wait"] }]);
  });

  it("writes the choices when the answer has no text", async () => {
    const run = runScript("!reply Picked.\n!ask Which? | a | b", { answer: { choices: ["a", "b"] } });
    expect(await run.outcome).toEqual({ status: "done", reply: "Picked.\nanswer: a, b" });
  });

  it("calls relay_tool as the session (!tool) with one line per result, in order after the reply", async () => {
    const run = runScript(
      [
        '!tool {"action":"list_sessions","relay":"this"}',
        "!reply Listed.",
        '!tool {"action":"usage","relay":"this"}',
        "!ask Fine? | yes",
      ].join("\n"),
    );
    expect(await run.outcome).toEqual({
      status: "done",
      reply: ["Listed.", '{"ok":true,"n":1}', '{"ok":true,"n":2}', "answer: Yes"].join("\n"),
    });
    expect(run.toolCalls).toEqual([
      { action: "list_sessions", relay: "this" },
      { action: "usage", relay: "this" },
    ]);
    // Pieces stream in the order they come.
    expect(run.streamed.join("")).toBe('{"ok":true,"n":1}\nListed.\n{"ok":true,"n":2}\nanswer: Yes');
  });

  it("ends the turn error listing every problem line, and runs nothing", async () => {
    const run = runScript('!reply hi\n!sleep soon\n!tool {"action":\n!bogus');
    const outcome = await run.outcome;
    expect(outcome.status).toBe("error");
    if (outcome.status === "error") {
      expect(outcome.error).toMatch(/^The script has problems, so none of it ran:\n/);
      expect(outcome.error).toContain("line 2: !sleep takes milliseconds");
      expect(outcome.error).toContain("line 3: !tool takes one JSON object");
      expect(outcome.error).toContain("line 4: unknown directive !bogus");
    }
    expect(run.streamed).toEqual([]);
    expect(run.toolCalls).toEqual([]);
  });

  it("starts tasks and subagents, waits for a task, and says each in the reply, in order", async () => {
    const run = runScript(
      "Build it.\n!task build :: npm test\n!subagent scout 100\n!wait-task build\n!reply done",
    );
    const outcome = await run.outcome;
    expect(outcome).toEqual({
      status: "done",
      reply:
        "done\ntask build started: task_1\nsubagent scout started: task_2\ntask build finished (exit code 0)",
    });
    expect(run.io.tasks).toEqual([
      { kind: "shell", name: "build", command: "npm test" },
      { kind: "subagent", name: "scout", ms: 100 },
    ]);
    expect(run.io.waitedTasks).toEqual(["build"]);
  });

  it("ends the turn error with the relay's refusal when a task cannot start", async () => {
    const clock = new FakeClock();
    const io = createRecordingTurnIO({ clock });
    const worker = createScriptProvider().startWorker(session);
    const refused = Object.assign(io, {
      startTask: async () => {
        throw new Error('Session ses_1 already runs a task named "build".');
      },
    });
    await expect(
      worker?.runTurn(turnInput("!reply a\n!task build :: make\n!reply b"), refused),
    ).rejects.toThrow('already runs a task named "build"');
  });
});

describe("external provider (DESIGN §5)", () => {
  it("is driven from outside: one model, no worker", () => {
    const provider = createExternalProvider();
    expect(provider.info).toEqual({
      id: "external",
      label: "External (MCP client)",
      models: [{ id: "external", default: true }],
      efforts: [],
      drivenFromOutside: true,
      usageTracked: false,
    });
    expect(provider.startWorker(session)).toBeNull();
  });
});
