import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, OWNER_TOKEN } from "./harness";
import { ownerOk, type RelayProcess, spawnRelay, stopIfRunning } from "./process";
import type { SessionView, TaskView } from "./support/served-relay";
import { connectEvents, SseReader } from "./support/sse";
import { liveGroupMembers } from "./support/tasks";

/** The task writes its shell's pid (the leader of its process group) first, so the test knows the group. */
const LONG_TASK = "echo $$ > task.pid; sleep 1000 & sleep 1000";

describe("background tasks across the relay's end (DESIGN §3, §8; real relay processes on PGlite)", {
  timeout: 90_000,
}, () => {
  const processes: RelayProcess[] = [];
  const groups: number[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const relay of processes.splice(0)) {
      stopIfRunning(relay);
      await relay.exited;
    }
    // A failed test leaves no task running either.
    for (const pgid of groups.splice(0)) {
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {
        // Gone already, as it should be.
      }
    }
    for (const dir of dirs.splice(0)) {
      await rm(dir, { recursive: true, force: true });
    }
  });

  async function setUp() {
    const root = await mkdtemp(join(tmpdir(), "oar-tasks-kill-"));
    dirs.push(root);
    const work = join(root, "work");
    await mkdir(work);
    const dataDir = join(root, "data");
    const start = async () => {
      const relay = spawnRelay({
        RELAY_NAME: "desk",
        RELAY_OWNER_TOKEN: OWNER_TOKEN,
        RELAY_DATA_DIR: dataDir,
        RELAY_ALLOWED_ROOTS: work,
      });
      processes.push(relay);
      return { relay, base: await relay.listening };
    };
    const owner = ownerOk;
    /** A session whose turn starts LONG_TASK; the task and its process group, once it runs. */
    const startLongTask = async (base: string) => {
      const { id } = await owner<SessionView>(base, "POST", "/v1/owner/sessions", {
        provider: "script",
        cwd: work,
        title: "Long",
        text: `!task long :: ${LONG_TASK}`,
      });
      const task = await eventually(async () => {
        const session = await owner<SessionView>(base, "GET", `/v1/owner/sessions/${id}`);
        return session.tasks.find((t) => t.status === "running");
      });
      const pgid = await eventually(async () => {
        const text = await readFile(join(work, "task.pid"), "utf8").catch(() => "");
        return /^\d+\n$/.test(text) ? Number(text) : undefined;
      });
      groups.push(pgid);
      // The shell and its two sleeps.
      await eventually(async () => ((await liveGroupMembers(pgid)).length >= 2 ? true : undefined));
      return { sessionId: id, task, pgid };
    };
    const taskOf = async (base: string, sessionId: string, taskId: string) =>
      (await owner<SessionView>(base, "GET", `/v1/owner/sessions/${sessionId}`)).tasks.find(
        (t) => t.taskId === taskId,
      );
    return { start, owner, startLongTask, taskOf };
  }

  it("after kill -9 of the relay the task's group runs on; the next relay on the data dir marks it failed (task_failed) and ends its group", async () => {
    const { start, owner, startLongTask, taskOf } = await setUp();
    const first = await start();
    const { sessionId, task, pgid } = await startLongTask(first.base);

    first.relay.child.kill("SIGKILL");
    expect(await first.relay.exited).toBe("SIGKILL");
    // Its own process group: the relay's death does not take it along.
    expect((await liveGroupMembers(pgid)).length).toBeGreaterThanOrEqual(2);

    const second = await start();
    const ended = await eventually(async () => {
      const found = await taskOf(second.base, sessionId, task.taskId);
      return found?.status === "running" ? undefined : found;
    });
    expect(ended).toMatchObject({ taskId: task.taskId, status: "failed", exitCode: null });
    await eventually(async () => ((await liveGroupMembers(pgid)).length === 0 ? true : undefined), 15_000);

    // An agent of the new process sees it ended too, and the session no longer counts as busy.
    const caller = await owner<SessionView>(second.base, "POST", "/v1/owner/sessions", {
      provider: "external",
      title: "Caller",
    });
    const { token: callerToken } = await owner<{ token: string }>(
      second.base,
      "POST",
      `/v1/owner/sessions/${caller.id}/token`,
    );
    const read = await fetch(`${second.base}/v1/tool`, {
      method: "POST",
      headers: { Authorization: `Bearer ${callerToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ action: "read_session", relay: "this", session: sessionId }),
    });
    const session = (await read.json()) as { ok: boolean; state: string; tasks: TaskView[] };
    expect(session).toMatchObject({ ok: true, state: "idle" });
    expect(session.tasks).toEqual([expect.objectContaining({ taskId: task.taskId, status: "failed" })]);

    // The task_failed event is in the outbox.
    const response = await connectEvents(second.base, { token: OWNER_TOKEN, query: "?from=start" });
    const stream = new SseReader(response);
    await stream.until((s) => s.events.some((e) => e.event === "task_failed"));
    const failed = stream.events.find((e) => e.event === "task_failed");
    expect(JSON.parse(failed?.data ?? "{}")).toMatchObject({
      session: sessionId,
      task_id: task.taskId,
      description: LONG_TASK,
      exitCode: null,
    });
    await stream.close();

    second.relay.child.kill("SIGTERM");
    expect(await second.relay.exited).toBe(0);
  });

  it("a relay stopped with SIGTERM ends its tasks' groups before it exits; the task is failed, never left running", async () => {
    const { start, startLongTask, taskOf } = await setUp();
    const first = await start();
    const { sessionId, task, pgid } = await startLongTask(first.base);

    first.relay.child.kill("SIGTERM");
    expect(await first.relay.exited).toBe(0);
    expect(await liveGroupMembers(pgid)).toEqual([]);

    const second = await start();
    expect(await taskOf(second.base, sessionId, task.taskId)).toMatchObject({ status: "failed" });
    second.relay.child.kill("SIGTERM");
    expect(await second.relay.exited).toBe(0);
  });
});
