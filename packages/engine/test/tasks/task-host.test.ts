import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIdGenerator } from "@oar/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createEngine } from "../../src/create-engine";
import type { EngineStores } from "../../src/ports/engine-stores";
import type { TaskSpec, TurnOutcome } from "../../src/ports/provider";
import { RUNNER_HEARTBEAT_MS } from "../../src/runtime/runner-lease";
import { MAX_RUNNING_TASKS_PER_SESSION, TASK_OUTPUT_KEPT_MS } from "../../src/tasks/task-host";
import { createTestProvider, openTestStores } from "../../src/testing";
import { createHarness, type Harness, RELAY, refusal, settle, T0, testClock } from "../actions/harness";

/** Real processes start and end, and the database answers, slower on a loaded machine than waitFor's 1 s. */
const LOADED_MACHINE = { timeout: 10_000 };

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "oar-tasks-"));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Whether a process (or the leader of a group) still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Prompts the session and waits for the reply, as the owner's agent would. */
function sendGo(h: Harness, sessionId: string) {
  return h.ok({ action: "send", relay: "this", session: sessionId, text: "go", wait_seconds: 5 });
}

/** A session whose next turn starts these tasks and ends `done` with their ids. */
async function sessionStarting(h: Harness, specs: readonly TaskSpec[]) {
  const session = await h.ownerSession({ cwd: folder });
  h.provider.script(async (turn): Promise<TurnOutcome> => {
    const ids: string[] = [];
    for (const spec of specs) {
      ids.push(await turn.io.startTask(spec));
    }
    return { status: "done", reply: ids.join(" ") };
  });
  const sent = await sendGo(h, session.id);
  h.provider.script(undefined);
  const reply = (sent.reply as { text: string }).text;
  return { session, taskIds: reply.split(" ") };
}

async function taskOf(h: Harness, id: string) {
  const task = await h.stores.tasks.getTask(id);
  expect(task).not.toBeNull();
  return task as NonNullable<typeof task>;
}

async function untilEnded(h: Harness, id: string) {
  await vi.waitFor(async () => expect((await taskOf(h, id)).status).not.toBe("running"), { timeout: 10_000 });
  return taskOf(h, id);
}

async function eventKinds(h: Harness, sessionId: string) {
  const events = await h.stores.events.listEvents({ after: 0, limit: 1000 });
  return events.filter((event) => event.sessionId === sessionId).map((event) => event.kind);
}

describe("background tasks (§13, issue 10)", () => {
  it("runs a shell task in the session's folder, its output in a file, and records its start and end", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const { session, taskIds } = await sessionStarting(h, [
      { kind: "shell", name: "build", command: 'pwd; echo "made in $OAR_SESSION"; exit 0' },
    ]);
    const [taskId = ""] = taskIds;
    const ended = await untilEnded(h, taskId);
    expect(ended).toMatchObject({
      sessionId: session.id,
      kind: "shell",
      name: "build",
      description: 'pwd; echo "made in $OAR_SESSION"; exit 0',
      status: "finished",
      exitCode: 0,
      outputPath: join(folder, `${taskId}.log`),
    });
    const read = await h.ok({
      action: "read_task_output",
      relay: "this",
      session: session.id,
      task_id: taskId,
    });
    expect(read.tail).toEqual([folder, `made in ${session.id}`]);
    expect(read.task).toMatchObject({ id: taskId, type: "local_bash", status: "finished", exitCode: 0 });
    expect(await eventKinds(h, session.id)).toEqual(
      expect.arrayContaining(["task_started", "task_finished"]),
    );
    expect((await h.session(session.id)).state).toBe("idle");
  });

  it("a non-zero exit fails the task with its code (task_failed)", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const { session, taskIds } = await sessionStarting(h, [
      { kind: "shell", name: "lint", command: "exit 3" },
    ]);
    expect(await untilEnded(h, taskIds[0] ?? "")).toMatchObject({ status: "failed", exitCode: 3 });
    const events = await h.stores.events.listEvents({ after: 0, limit: 1000 });
    const failed = events.find((event) => event.kind === "task_failed");
    expect(failed?.event).toMatchObject({
      task_id: taskIds[0],
      description: "exit 3",
      exitCode: 3,
      session: session.id,
    });
  });

  it("shows a running task in list_sessions and read_session, the session background_only, with health", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const { session, taskIds } = await sessionStarting(h, [
      { kind: "shell", name: "serve", command: "echo up; sleep 1000" },
    ]);
    await settle();
    expect((await h.session(session.id)).state).toBe("background_only");
    h.clock.advance(12 * 60_000);
    const read = await h.ok({ action: "read_session", relay: "this", session: session.id });
    expect(read.state).toBe("background_only");
    expect(read.tasks).toEqual([
      {
        taskId: taskIds[0],
        description: "echo up; sleep 1000",
        type: "local_bash",
        status: "running",
        startedAt: new Date(T0).toISOString(),
        exitCode: null,
        output: true,
        health: { minutesSinceOutput: expect.any(Number), quiet: expect.any(Boolean), quietAfterMinutes: 10 },
      },
    ]);
    const listed = await h.ok({ action: "list_sessions", relay: "this" });
    const entry = (listed.sessions as { id: string; tasks: unknown[] }[]).find((s) => s.id === session.id);
    expect(entry?.tasks).toHaveLength(1);
    const stopped = await h.ok({ action: "stop", relay: "this", session: session.id });
    expect(stopped.stopRequested).toBe(true);
    const task = await taskOf(h, taskIds[0] ?? "");
    expect(task.status).toBe("stopped");
    await vi.waitFor(() => expect(alive(task.pid as number)).toBe(false), LOADED_MACHINE);
    expect((await h.session(session.id)).state).toBe("idle");
    expect(await eventKinds(h, session.id)).not.toContain("task_failed");
  });

  it("a background agent finishes after its time on the relay's clock (subagent_finished)", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const { session, taskIds } = await sessionStarting(h, [{ kind: "subagent", name: "scout", ms: 60_000 }]);
    await settle();
    expect((await taskOf(h, taskIds[0] ?? "")).status).toBe("running");
    h.clock.advance(59_999);
    await settle();
    expect((await taskOf(h, taskIds[0] ?? "")).status).toBe("running");
    h.clock.advance(1);
    expect(await untilEnded(h, taskIds[0] ?? "")).toMatchObject({ kind: "subagent", status: "finished" });
    expect(await eventKinds(h, session.id)).toContain("subagent_finished");
    const read = await h.ok({
      action: "read_task_output",
      relay: "this",
      session: session.id,
      task_id: taskIds[0],
    });
    expect(read.note).toContain("background agent");
    expect(read.tail).toEqual([]);
  });

  it("waits for a task by name, and refuses a second running task of the same name", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const session = await h.ownerSession({ cwd: folder });
    h.provider.script(async (turn): Promise<TurnOutcome> => {
      await turn.io.startTask({ kind: "shell", name: "t", command: "sleep 0.2; exit 4" });
      const twice = await turn.io
        .startTask({ kind: "shell", name: "t", command: "true" })
        .catch((e: Error) => e.message);
      const end = await turn.io.waitTask("t");
      return { status: "done", reply: `${twice} | ${end.status} ${end.exitCode}` };
    });
    const sent = await h.ok({
      action: "send",
      relay: "this",
      session: session.id,
      text: "go",
      wait_seconds: 600,
    });
    expect((sent.reply as { text: string }).text).toBe(
      `Session ${session.id} already runs a task named "t"; wait for it or give the new one another name. | failed 4`,
    );
  });

  it(`runs at most ${MAX_RUNNING_TASKS_PER_SESSION} tasks at once in a session: the next is refused`, async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const specs = Array.from({ length: MAX_RUNNING_TASKS_PER_SESSION }, (_, i) => ({
      kind: "subagent" as const,
      name: `a${i}`,
      ms: 3_600_000,
    }));
    const { session, taskIds } = await sessionStarting(h, specs);
    expect(taskIds).toHaveLength(MAX_RUNNING_TASKS_PER_SESSION);
    h.provider.script(async (turn): Promise<TurnOutcome> => {
      await turn.io.startTask({ kind: "subagent", name: "one-more", ms: 1 });
      return { status: "done", reply: "started" };
    });
    const sent = await sendGo(h, session.id);
    expect(sent.status).toBe("error");
    expect(sent.errorMessage).toContain(`already runs ${MAX_RUNNING_TASKS_PER_SESSION} background tasks`);
  });

  it("archive ends the session's tasks and leaves no process", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const { session, taskIds } = await sessionStarting(h, [
      { kind: "shell", name: "s", command: "sleep 1000 & sleep 1000" },
    ]);
    const running = await taskOf(h, taskIds[0] ?? "");
    await h.ok({ action: "archive", relay: "this", session: session.id });
    expect((await taskOf(h, running.id)).status).toBe("stopped");
    await vi.waitFor(() => expect(alive(running.pid as number)).toBe(false), LOADED_MACHINE);
  });
});

describe("read_task_output (§13)", () => {
  it("gives the last lines plain, folded, masked, with the test counts and a summary like the spec's", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const script = [
      'for i in $(seq 1 2000); do echo "line $i"; done',
      "echo same; echo same; echo same",
      "printf '\\033[32m ✓ ok\\033[0m\\n'",
      "echo 'export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789'",
      "echo ' Tests  2 failed | 412 passed (414)'",
    ].join("; ");
    const { session, taskIds } = await sessionStarting(h, [{ kind: "shell", name: "test", command: script }]);
    const taskId = taskIds[0] ?? "";
    await untilEnded(h, taskId);
    const read = await h.ok({
      action: "read_task_output",
      relay: "this",
      session: session.id,
      task_id: taskId,
      lines: 5,
    });
    expect(read.tail).toEqual([
      "line 2000",
      "same [×3]",
      " ✓ ok",
      "export GITHUB_TOKEN=[masked]",
      " Tests  2 failed | 412 passed (414)",
    ]);
    expect(read.truncated).toBe(true);
    expect(read.counts).toEqual({ runner: "vitest", passed: 412, failed: 2, skipped: 0, final: true });
    expect(read.summary).toBe(
      `read_task_output → desk session ${session.id.slice(4, 12)} task ${taskId.slice(5, 13)}: 5 lines, finished (exit code 0), 412 passed, 2 failed`,
    );
    const fifty = await h.ok({
      action: "read_task_output",
      relay: "this",
      session: session.id,
      task_id: taskId,
    });
    expect(fifty.tail).toHaveLength(50);
  });

  it("takes 1 to 500 lines: 500 is fine, 501 and 0 are refused", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const { session, taskIds } = await sessionStarting(h, [
      { kind: "shell", name: "n", command: "seq 1 600" },
    ]);
    await untilEnded(h, taskIds[0] ?? "");
    const call = { action: "read_task_output", relay: "this", session: session.id, task_id: taskIds[0] };
    const most = await h.ok({ ...call, lines: 500 });
    expect(most.tail).toHaveLength(500);
    expect((most.tail as string[])[0]).toBe("101");
    expect(refusal(await h.call({ ...call, lines: 501 })).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(refusal(await h.call({ ...call, lines: 0 })).code).toBe("REMOTE_RELAY_INVALID_INPUT");
  });

  it("says stall while the task runs: minutes since its last output, quiet past the relay's setting", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const { session, taskIds } = await sessionStarting(h, [
      { kind: "shell", name: "q", command: "echo started; sleep 1000" },
    ]);
    const taskId = taskIds[0] ?? "";
    await vi.waitFor(async () => {
      const read = await h.ok({
        action: "read_task_output",
        relay: "this",
        session: session.id,
        task_id: taskId,
      });
      expect(read.tail).toEqual(["started"]);
    }, LOADED_MACHINE);
    h.clock.advance(14 * 60_000 + 30_000);
    const read = await h.ok({
      action: "read_task_output",
      relay: "this",
      session: session.id,
      task_id: taskId,
    });
    expect(read.stall).toMatchObject({ minutes: 14, quiet: true, quietAfterMinutes: 10 });
    expect(read.summary).toContain(": 1 line, running, last output 14 min ago");
    await h.ok({ action: "stop", relay: "this", session: session.id });
  });

  it("is NOT_FOUND for an unknown task, another session's task, and a task that ended over an hour ago; the file goes", async () => {
    const h = await createHarness({ taskOutputDir: folder });
    const { session, taskIds } = await sessionStarting(h, [{ kind: "shell", name: "x", command: "echo x" }]);
    const taskId = taskIds[0] ?? "";
    const ended = await untilEnded(h, taskId);
    const other = await h.ownerSession();
    const call = { action: "read_task_output", relay: "this", session: session.id, task_id: taskId };
    expect(refusal(await h.call({ ...call, task_id: "task_none" })).code).toBe("REMOTE_RELAY_NOT_FOUND");
    expect(refusal(await h.call({ ...call, session: other.id })).code).toBe("REMOTE_RELAY_NOT_FOUND");
    h.clock.advance((ended.endedAt ?? T0) + TASK_OUTPUT_KEPT_MS - h.clock.now());
    expect((await h.ok(call)).tail).toEqual(["x"]);
    h.clock.advance(1);
    expect(refusal(await h.call(call))).toEqual({
      code: "REMOTE_RELAY_NOT_FOUND",
      error: expect.stringContaining("ended more than an hour ago"),
    });
    // A heartbeat removes the file nobody may read any more. One still running when the clock
    // moved sets its next timer only when it ends, so each look lets another heartbeat come.
    await vi.waitFor(
      async () => {
        h.clock.advance(RUNNER_HEARTBEAT_MS);
        expect(await readdir(folder)).toEqual([]);
      },
      { ...LOADED_MACHINE, interval: 100 },
    );
    expect((await taskOf(h, taskId)).outputPath).toBeNull();
  });
});

describe("a restart with tasks running (DESIGN §3)", () => {
  it("marks the tasks the last relay left running failed, and ends their process groups", async () => {
    const stores: EngineStores = await openTestStores();
    const clock = testClock(T0);
    const start = () => {
      const engine = createEngine({
        stores,
        providers: [provider],
        clock,
        ids: createIdGenerator(),
        relay: RELAY,
        approvalCards: false,
        taskOutputDir: folder,
      });
      return engine;
    };
    const provider = createTestProvider();
    const first = start();
    await first.start();
    const session = await stores.sessions.createSession({
      id: "ses_work",
      title: "Work",
      provider: "test",
      model: "test-1",
      cwd: folder,
      createdAt: clock.now(),
    });
    provider.script(async (turn): Promise<TurnOutcome> => {
      const id = await turn.io.startTask({ kind: "shell", name: "long", command: "sleep 1000 & sleep 1000" });
      return { status: "done", reply: id };
    });
    await first.owner.postMessage(session.id, "go");
    // The row is written before the command starts and its group's pid after: wait for both.
    await vi.waitFor(
      async () =>
        expect(await stores.tasks.listRunningTasks()).toEqual([
          expect.objectContaining({ pid: expect.any(Number) }),
        ]),
      LOADED_MACHINE,
    );
    const [lost] = await stores.tasks.listRunningTasks();
    expect(alive(lost?.pid as number)).toBe(true);
    // The first relay is gone without closing (as after kill -9); a second one starts on its stores.
    const second = start();
    await second.start();
    expect(await stores.tasks.getTask(lost?.id as string)).toMatchObject({
      status: "failed",
      exitCode: null,
    });
    await vi.waitFor(() => expect(alive(lost?.pid as number)).toBe(false), LOADED_MACHINE);
    const events = await stores.events.listEvents({ after: 0, limit: 100 });
    expect(events.map((event) => event.kind)).toContain("task_failed");
    expect((await stores.sessions.getSession(session.id))?.state).toBe("idle");
    await second.close();
    await first.close();
  });
});
