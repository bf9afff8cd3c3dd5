import { access, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, OWNER_TOKEN } from "./harness";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import {
  type ServedRelay,
  type SessionView,
  serveRelay,
  type TaskView,
  type ToolResult,
  turnsEnded,
} from "./support/served-relay";
import { connectEvents, SseReader } from "./support/sse";
import {
  BUILD_SCRIPT,
  BUILD_TAIL_END,
  buildLine,
  liveGroupMembers,
  PROGRESS_SCRIPT,
  shiftedClock,
} from "./support/tasks";

interface ListedSession {
  readonly id: string;
  readonly state: string;
  readonly tasks: readonly TaskView[];
}

interface TaskOutput extends ToolResult {
  readonly task: { id: string; description: string; type: string; status: string; exitCode: number | null };
  readonly tail: string[];
  readonly truncated?: boolean;
  readonly stall?: { minutes: number; since: string; quiet: boolean; quietAfterMinutes: number };
  readonly counts?: { runner: string; passed: number; failed: number; skipped: number; final: boolean };
  readonly note?: string;
}

/** The 8-character form of an id in summaries (R-CALL-10). */
const short = (id: string) => id.slice(id.indexOf("_") + 1, id.indexOf("_") + 9);

/** A relay served over HTTP with a folder for sessions (holding the build scripts) and an external caller. */
function useTaskRelay(options: {
  readonly databaseUrl?: () => string;
  readonly clock?: ReturnType<typeof shiftedClock>;
}) {
  const state = {} as {
    root: string;
    dataDir: string;
    work: string;
    served: ServedRelay;
    caller: { id: string; token: string };
  };
  beforeAll(async () => {
    state.root = await mkdtemp(join(tmpdir(), "oar-tasks-"));
    state.dataDir = join(state.root, "data");
    state.work = join(state.root, "work");
    await mkdir(state.work);
    await writeFile(join(state.work, "build.sh"), BUILD_SCRIPT);
    await writeFile(join(state.work, "progress.sh"), PROGRESS_SCRIPT);
    const url = options.databaseUrl?.();
    state.served = await serveRelay({
      dataDir: state.dataDir,
      allowedRoots: [state.work],
      ...(url === undefined ? {} : { databaseUrl: url }),
      ...(options.clock === undefined ? {} : { overrides: { clock: options.clock.clock } }),
    });
    const { id } = await state.served.ownerJson<SessionView>("POST", "/v1/owner/sessions", {
      provider: "external",
      title: "Caller",
    });
    state.caller = { id, token: await state.served.agentToken(id) };
  });
  afterAll(async () => {
    await state.served?.close();
    if (state.root !== undefined) {
      await rm(state.root, { recursive: true, force: true });
    }
  });

  const session = (id: string) => state.served.ownerJson<SessionView>("GET", `/v1/owner/sessions/${id}`);
  const tool = (call: Record<string, unknown>) => state.served.tool(state.caller.token, call);
  return {
    state,
    session,
    tool,
    /** A script session in the work folder running `text`; its id. */
    async script(text: string, title = "Tasks") {
      const created = await state.served.ownerJson<SessionView>("POST", "/v1/owner/sessions", {
        provider: "script",
        cwd: state.work,
        title,
        text,
      });
      return created.id;
    },
    /** The session's task of that description, once it is listed. */
    task(sessionId: string, description: string) {
      return eventually(async () =>
        (await session(sessionId)).tasks.find((t) => t.description === description),
      );
    },
    /** The process group the relay started the task in (its pid leads it), from the tasks table. */
    async pidOf(taskId: string) {
      const record = await state.served.relay.services.storage.stores.tasks.getTask(taskId);
      expect(record?.pid, `pid of ${taskId}`).toEqual(expect.any(Number));
      return record?.pid as number;
    },
    readOutput(sessionId: string, taskId: string, extra: Record<string, unknown> = {}) {
      return tool({
        action: "read_task_output",
        relay: "this",
        session: sessionId,
        task_id: taskId,
        ...extra,
      }) as Promise<TaskOutput>;
    },
  };
}

/** Waits until no live process is left in the group. */
const groupGone = (pgid: number) =>
  eventually(async () => ((await liveGroupMembers(pgid)).length === 0 ? true : undefined), 15_000);

function taskFlow(database: string, databaseUrl?: () => string) {
  describe(`background tasks over HTTP (${database})`, { timeout: 60_000 }, () => {
    const relay = useTaskRelay(databaseUrl === undefined ? {} : { databaseUrl });
    const { state } = relay;

    it("§13: read_task_output gives the build's tail as plain text, repeats folded, credentials masked, with final counts, truncated, and the summary line", async () => {
      const id = await relay.script("!task build :: sh build.sh\n!wait-task build");
      const ended = await turnsEnded(state.served, id);
      expect(ended.turns[0]?.status).toBe("done");
      const task = ended.tasks.find((t) => t.description === "sh build.sh");
      expect(task).toMatchObject({ type: "local_bash", status: "finished", exitCode: 0, output: true });
      const taskId = task?.taskId as string;
      expect(ended.turns[0]?.reply).toContain(`task build started: ${taskId}`);
      expect(ended.turns[0]?.reply).toContain("task build finished (exit code 0)");
      // The output is a file under the data dir (DESIGN §3).
      await access(join(state.dataDir, "tasks", `${taskId}.log`));

      const read = await relay.readOutput(id, taskId);
      expect(read.ok).toBe(true);
      expect(read.task).toMatchObject({
        id: taskId,
        description: "sh build.sh",
        type: "local_bash",
        status: "finished",
        exitCode: 0,
      });
      const first = 2000 - (50 - BUILD_TAIL_END.length) + 1;
      expect(read.tail).toEqual([
        ...Array.from({ length: 50 - BUILD_TAIL_END.length }, (_, index) => buildLine(first + index)),
        ...BUILD_TAIL_END,
      ]);
      expect(read.truncated).toBe(true);
      expect(read.counts).toEqual({ runner: "vitest", passed: 412, failed: 2, skipped: 1, final: true });
      expect(read.stall).toBeUndefined();
      const text = JSON.stringify(read);
      expect(text).not.toContain("\\u001b");
      expect(text).not.toContain("ghp_");
      expect(text).not.toContain("hunter2");
      expect(text).not.toContain("s3cr3t");
      expect(read.summary).toBe(
        `read_task_output → desk session ${short(id)} task ${short(taskId)}: 50 lines, finished (exit code 0), 412 passed, 2 failed, 1 skipped`,
      );

      const most = await relay.readOutput(id, taskId, { lines: 500 });
      expect(most.ok).toBe(true);
      expect(most.tail).toHaveLength(500);
      expect(most.tail.slice(-BUILD_TAIL_END.length)).toEqual(BUILD_TAIL_END);
      expect(most.truncated).toBe(true);
      const tooMany = await relay.readOutput(id, taskId, { lines: 501 });
      expect(tooMany).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
      expect(tooMany.error).toContain("lines");
      const none = await relay.readOutput(id, taskId, { lines: 0 });
      expect(none).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
      const unknown = await relay.readOutput(id, "task_doesnotexist");
      expect(unknown).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
      // A task is read through its own session only.
      const elsewhere = await relay.readOutput(state.caller.id, taskId);
      expect(elsewhere).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
      // R-RTO-05: output that is no longer there is said so.
      await rm(join(state.dataDir, "tasks", `${taskId}.log`));
      const gone = await relay.readOutput(id, taskId);
      expect(gone).toMatchObject({ ok: true, tail: [], note: expect.stringContaining("no longer there") });
      expect(gone.task.status).toBe("finished");
    });

    it("a long task: background_only in list_sessions, health in read_session, stall and counts so far in read_task_output; stop over /v1/tool ends it and its process group", async () => {
      const id = await relay.script("!task tests :: sh progress.sh", "Long");
      const task = await relay.task(id, "sh progress.sh");
      const pid = await relay.pidOf(task.taskId);
      // The script's shell and its sleeps run in the task's group.
      await eventually(async () => ((await liveGroupMembers(pid)).length >= 2 ? true : undefined));

      // The turn replied; only the task runs (R-LSES-02).
      const listed = await eventually(async () => {
        const { sessions } = (await relay.tool({ action: "list_sessions", relay: "this" })) as ToolResult & {
          sessions: ListedSession[];
        };
        const found = sessions.find((s) => s.id === id);
        return found?.state === "background_only" ? found : undefined;
      });
      expect(listed.tasks).toEqual([
        expect.objectContaining({
          taskId: task.taskId,
          type: "local_bash",
          status: "running",
          exitCode: null,
        }),
      ]);
      const read = (await relay.tool({
        action: "read_session",
        relay: "this",
        session: id,
      })) as ToolResult & {
        state: string;
        tasks: TaskView[];
      };
      expect(read.state).toBe("background_only");
      expect(read.tasks[0]).toMatchObject({
        taskId: task.taskId,
        status: "running",
        output: true,
        health: { minutesSinceOutput: 0, quiet: false, quietAfterMinutes: expect.any(Number) },
      });

      const output = await eventually(async () => {
        const out = await relay.readOutput(id, task.taskId);
        return out.tail.includes("still running") ? out : undefined;
      });
      expect(output.task.status).toBe("running");
      expect(output.stall).toMatchObject({ minutes: 0, quiet: false });
      expect(output.counts).toEqual({ runner: "vitest", passed: 3, failed: 1, skipped: 0, final: false });
      expect(output.truncated).toBeUndefined();
      expect(output.tail).toEqual([
        " RUN  v4.1.12 /work/project",
        " ✓ test/a.test.ts (1 test) 3ms",
        " ✓ test/b.test.ts (1 test) 3ms",
        " ✓ test/c.test.ts (1 test) 3ms",
        " × test/d.test.ts (1 test | 1 failed) 3ms",
        "still running",
      ]);
      expect(output.summary).toBe(
        `read_task_output → desk session ${short(id)} task ${short(task.taskId)}: 6 lines, running, last output 0 min ago, 3 passed, 1 failed`,
      );

      // One running task per name in a session: a second `tests` ends that turn error, the first runs on.
      await state.served.ownerJson("POST", `/v1/owner/sessions/${id}/messages`, {
        text: "!task tests :: echo again",
      });
      const refused = await turnsEnded(state.served, id);
      expect(refused.turns[1]?.status).toBe("error");
      expect(refused.turns[1]?.error).toContain('already runs a task named "tests"');
      expect(refused.tasks.map((t) => t.status)).toEqual(["running"]);
      expect(refused.state).toBe("background_only");

      const stopped = await relay.tool({ action: "stop", relay: "this", session: id });
      expect(stopped).toMatchObject({ ok: true, stopRequested: true });
      await groupGone(pid);
      const after = await relay.session(id);
      expect(after.tasks.find((t) => t.taskId === task.taskId)).toMatchObject({ status: "stopped" });
      expect(after.state).toBe("idle");
      const final = await relay.readOutput(id, task.taskId);
      expect(final.task.status).toBe("stopped");
      expect(final.stall).toBeUndefined();
      // Nothing runs any more: a second stop says so.
      expect(await relay.tool({ action: "stop", relay: "this", session: id })).toMatchObject({
        ok: true,
        stopRequested: false,
      });
    });

    it("!wait-task waits for each task and the reply says how it ended; task_started, task_failed (exitCode 4), task_finished and subagent_finished reach the owner's event stream", async () => {
      const response = await connectEvents(state.served.base, { token: OWNER_TOKEN });
      expect(response.status).toBe(200);
      const stream = new SseReader(response);
      const id = await relay.script(
        [
          "!task broken :: echo about to fail; exit 4",
          "!task fine :: echo all good",
          "!subagent helper 200",
          "!wait-task broken",
          "!wait-task fine",
          "!wait-task helper",
        ].join("\n"),
        "Waits",
      );
      const ended = await turnsEnded(state.served, id);
      const reply = ended.turns[0]?.reply ?? "";
      expect(ended.turns[0]?.status).toBe("done");
      expect(reply).toContain("task broken failed (exit code 4)");
      expect(reply).toContain("task fine finished (exit code 0)");
      expect(reply).toContain("task helper finished");
      const byName = (description: string) => ended.tasks.find((t) => t.description === description);
      expect(byName("echo about to fail; exit 4")).toMatchObject({ status: "failed", exitCode: 4 });
      expect(byName("echo all good")).toMatchObject({ status: "finished", exitCode: 0 });
      const helper = byName("helper");
      expect(helper).toMatchObject({ type: "local_agent", status: "finished", output: false });

      const mine = () =>
        stream.events
          .map((event) => ({ kind: event.event, data: JSON.parse(event.data) as Record<string, unknown> }))
          .filter((event) => event.data.session === id);
      await stream.until(
        () => mine().filter((e) => e.kind?.startsWith("task_") || e.kind === "subagent_finished").length >= 6,
      );
      const failed = mine().find((e) => e.kind === "task_failed");
      expect(failed?.data).toMatchObject({
        kind: "task_failed",
        session: id,
        title: "Waits",
        task_id: byName("echo about to fail; exit 4")?.taskId,
        description: "echo about to fail; exit 4",
        exitCode: 4,
      });
      expect(mine().find((e) => e.kind === "task_finished")?.data).toMatchObject({
        task_id: byName("echo all good")?.taskId,
        exitCode: 0,
      });
      expect(mine().find((e) => e.kind === "subagent_finished")?.data).toMatchObject({
        task_id: helper?.taskId,
        description: "helper",
      });
      expect(
        mine()
          .filter((e) => e.kind === "task_started")
          .map((e) => e.data.type),
      ).toEqual(["local_bash", "local_bash", "local_agent"]);
      // A background agent has no output of its own.
      const helperOutput = await relay.readOutput(id, helper?.taskId as string);
      expect(helperOutput).toMatchObject({
        ok: true,
        tail: [],
        note: expect.stringContaining("background agent"),
      });
    });

    it("archive, Kill and delete each end the session's tasks: status stopped, process group gone", async () => {
      const start = async (title: string) => {
        const id = await relay.script("!task long :: sleep 1000 & sleep 1000", title);
        const task = await relay.task(id, "sleep 1000 & sleep 1000");
        const pid = await relay.pidOf(task.taskId);
        await eventually(async () => ((await liveGroupMembers(pid)).length >= 2 ? true : undefined));
        return { id, taskId: task.taskId, pid };
      };
      const storedStatus = async (taskId: string) =>
        (await state.served.relay.services.storage.stores.tasks.getTask(taskId))?.status;

      const archived = await start("Archived");
      await state.served.ownerJson("POST", `/v1/owner/sessions/${archived.id}/archive`);
      await groupGone(archived.pid);
      expect(await storedStatus(archived.taskId)).toBe("stopped");
      // An archived session's task output stays readable.
      expect(await relay.readOutput(archived.id, archived.taskId)).toMatchObject({
        ok: true,
        task: { status: "stopped" },
      });

      const killed = await start("Killed");
      expect(await state.served.ownerJson("POST", `/v1/owner/sessions/${killed.id}/kill`)).toEqual({
        ok: true,
      });
      await groupGone(killed.pid);
      expect((await relay.session(killed.id)).tasks.find((t) => t.taskId === killed.taskId)).toMatchObject({
        status: "stopped",
      });

      const deleted = await start("Deleted");
      expect(await state.served.ownerJson("DELETE", `/v1/owner/sessions/${deleted.id}`)).toEqual({
        ok: true,
      });
      await groupGone(deleted.pid);
      expect(await storedStatus(deleted.taskId)).toBe("stopped");
      expect(await relay.readOutput(deleted.id, deleted.taskId)).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_NOT_FOUND",
      });
    });
  });
}

taskFlow("PGlite");

describe.skipIf(TEST_POSTGRES_URL === undefined)("Postgres", () => {
  const database = useScratchPostgres();
  taskFlow("Postgres", () => database().url);
});

describe("how old a task's output looks, on the relay's clock (PGlite)", { timeout: 60_000 }, () => {
  const time = shiftedClock();
  const relay = useTaskRelay({ clock: time });

  it("R-RTO-03/R-RSES-05: quiet past the relay's setting; R-RTO-07: NOT_FOUND once it ended over an hour ago", async () => {
    const id = await relay.script("!task quiet :: echo started; sleep 1000", "Quiet");
    const task = await relay.task(id, "echo started; sleep 1000");
    const pid = await relay.pidOf(task.taskId);
    await eventually(async () =>
      (await relay.readOutput(id, task.taskId)).tail.includes("started") ? true : undefined,
    );
    const { quietAfterMinutes } = await relay.state.served.ownerJson<{ quietAfterMinutes: number }>(
      "GET",
      "/v1/owner/settings",
    );

    time.advance((quietAfterMinutes + 5) * 60_000);
    const quiet = await relay.readOutput(id, task.taskId);
    expect(quiet.stall).toMatchObject({ minutes: quietAfterMinutes + 5, quiet: true, quietAfterMinutes });
    expect(quiet.summary).toContain(`running, last output ${quietAfterMinutes + 5} min ago`);
    const read = (await relay.tool({ action: "read_session", relay: "this", session: id })) as ToolResult & {
      tasks: TaskView[];
    };
    expect(read.tasks[0]?.health).toMatchObject({ minutesSinceOutput: quietAfterMinutes + 5, quiet: true });

    expect(await relay.tool({ action: "stop", relay: "this", session: id })).toMatchObject({
      stopRequested: true,
    });
    await groupGone(pid);
    // Within the hour after its end the output is still there.
    time.advance(59 * 60_000);
    expect(await relay.readOutput(id, task.taskId)).toMatchObject({ ok: true, tail: ["started"] });
    time.advance(2 * 60_000);
    const gone = await relay.readOutput(id, task.taskId);
    expect(gone).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    expect(gone.error).toContain("more than an hour ago");
    expect((await relay.session(id)).tasks).toEqual([]);
  });
});
