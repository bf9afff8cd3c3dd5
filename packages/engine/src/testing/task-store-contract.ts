import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { SessionStore } from "../ports/session-store";
import type { NewTask, TaskStore } from "../ports/task-store";
import { newSession, newTask } from "./fixtures";

export interface TaskStoreFixture extends ContractFixture<TaskStore> {
  readonly sessions: SessionStore;
}

function task(id: string, overrides: Partial<NewTask> = {}): NewTask {
  return newTask(id, "ses_1", { runner: "relay-a", pid: 4242, ...overrides });
}

/** The behaviour every TaskStore must have (§13; DESIGN §3: a task's row outlives its process). */
export function runTaskStoreContract(setup: ContractSetup<TaskStoreFixture>): void {
  describe("TaskStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

    async function sessions(...sessionIds: string[]) {
      for (const id of sessionIds) {
        await fixture().sessions.createSession(newSession(id));
      }
    }

    it("stores a task running, with nothing ended about it", async () => {
      await sessions("ses_1");
      const stored = await store().insertTask(task("tsk_1"));
      expect(stored).toEqual({
        ...task("tsk_1"),
        status: "running",
        exitCode: null,
        counts: null,
        lastOutputAt: null,
        endedAt: null,
      });
      expect(await store().getTask("tsk_1")).toEqual(stored);
      expect(await store().getTask("tsk_none")).toBeNull();
    });

    it("ends a running task once: a second ending finds it ended and changes nothing", async () => {
      await sessions("ses_1");
      await store().insertTask(task("tsk_1"));
      const ended = await store().endTask({
        id: "tsk_1",
        status: "failed",
        exitCode: 2,
        endedAt: T0 + 5_000,
      });
      expect(ended).toMatchObject({ status: "failed", exitCode: 2, endedAt: T0 + 5_000 });
      expect(
        await store().endTask({ id: "tsk_1", status: "finished", exitCode: 0, endedAt: T0 + 6_000 }),
      ).toBeNull();
      expect(await store().getTask("tsk_1")).toMatchObject({ status: "failed", exitCode: 2 });
      expect(
        await store().endTask({ id: "tsk_none", status: "stopped", exitCode: null, endedAt: T0 }),
      ).toBeNull();
    });

    it("lists a session's running tasks and those ended since a time, oldest first", async () => {
      await sessions("ses_1", "ses_2");
      await store().insertTask(task("tsk_b", { startedAt: T0 + 2 }));
      await store().insertTask(task("tsk_a", { startedAt: T0 + 1 }));
      await store().insertTask(task("tsk_old", { startedAt: T0 }));
      await store().insertTask(task("tsk_other", { sessionId: "ses_2" }));
      await store().endTask({ id: "tsk_old", status: "finished", exitCode: 0, endedAt: T0 + 10 });
      await store().endTask({ id: "tsk_b", status: "finished", exitCode: 0, endedAt: T0 + 100 });
      expect(ids(await store().listTasksOfSessions(["ses_1"], { endedSince: T0 + 50 }))).toEqual([
        "tsk_a",
        "tsk_b",
      ]);
      expect(ids(await store().listTasksOfSessions(["ses_1"], { endedSince: 0 }))).toEqual([
        "tsk_old",
        "tsk_a",
        "tsk_b",
      ]);
      expect(ids(await store().listTasksOfSessions(["ses_1", "ses_2"], { endedSince: T0 + 50 }))).toEqual([
        "tsk_other",
        "tsk_a",
        "tsk_b",
      ]);
      expect(ids(await store().listTasksOfSessions(["ses_1"], { endedSince: null }))).toEqual(["tsk_a"]);
      expect(await store().listTasksOfSessions([], { endedSince: 0 })).toEqual([]);
    });

    it("lists the running tasks, of every process or of one", async () => {
      await sessions("ses_1");
      await store().insertTask(task("tsk_a"));
      await store().insertTask(task("tsk_b", { runner: "relay-b", startedAt: T0 + 1 }));
      await store().insertTask(task("tsk_c", { startedAt: T0 + 2 }));
      await store().endTask({ id: "tsk_c", status: "stopped", exitCode: null, endedAt: T0 + 3 });
      expect(ids(await store().listRunningTasks())).toEqual(["tsk_a", "tsk_b"]);
      expect(ids(await store().listRunningTasks({ runner: "relay-b" }))).toEqual(["tsk_b"]);
    });

    it("notes output and test counts while the task runs, not after", async () => {
      await sessions("ses_1");
      await store().insertTask(task("tsk_1"));
      const counts = { runner: "vitest", passed: 412, failed: 2, skipped: 0, final: false };
      await store().noteOutput("tsk_1", { at: T0 + 1_000, counts });
      expect(await store().getTask("tsk_1")).toMatchObject({ lastOutputAt: T0 + 1_000, counts });
      await store().noteOutput("tsk_1", { at: T0 + 2_000 });
      expect(await store().getTask("tsk_1")).toMatchObject({ lastOutputAt: T0 + 2_000, counts });
      await store().endTask({ id: "tsk_1", status: "finished", exitCode: 0, endedAt: T0 + 3_000 });
      await store().noteOutput("tsk_1", { at: T0 + 4_000, counts: null });
      expect(await store().getTask("tsk_1")).toMatchObject({ lastOutputAt: T0 + 2_000, counts });
    });

    it("lists ended tasks whose output outlived its hour, and forgets a removed file", async () => {
      await sessions("ses_1");
      await store().insertTask(task("tsk_a"));
      await store().insertTask(task("tsk_b"));
      await store().insertTask(task("tsk_running"));
      await store().insertTask(task("tsk_none", { outputPath: null }));
      await store().endTask({ id: "tsk_a", status: "finished", exitCode: 0, endedAt: T0 + 10 });
      await store().endTask({ id: "tsk_b", status: "failed", exitCode: 1, endedAt: T0 + 20 });
      await store().endTask({ id: "tsk_none", status: "finished", exitCode: 0, endedAt: T0 + 5 });
      expect(ids(await store().listExpiredOutputs({ endedBefore: T0 + 15, limit: 10 }))).toEqual(["tsk_a"]);
      expect(ids(await store().listExpiredOutputs({ endedBefore: T0 + 30, limit: 1 }))).toEqual(["tsk_a"]);
      await store().forgetOutput("tsk_a");
      expect(await store().getTask("tsk_a")).toMatchObject({ outputPath: null, status: "finished" });
      expect(ids(await store().listExpiredOutputs({ endedBefore: T0 + 30, limit: 10 }))).toEqual(["tsk_b"]);
    });

    it("records a task's process group once it started, running or not", async () => {
      await sessions("ses_1");
      await store().insertTask(task("tsk_1", { pid: null }));
      await store().recordPid("tsk_1", 777);
      expect(await store().getTask("tsk_1")).toMatchObject({ pid: 777, status: "running" });
      await store().recordPid("tsk_unknown", 1);
      expect(await store().getTask("tsk_unknown")).toBeNull();
    });

    it("lists, for a host, only the expired outputs on that host or on none named", async () => {
      await sessions("ses_1");
      await store().insertTask(task("tsk_here", { host: "box-1" }));
      await store().insertTask(task("tsk_there", { host: "box-2" }));
      await store().insertTask(task("tsk_unnamed"));
      for (const id of ["tsk_here", "tsk_there", "tsk_unnamed"]) {
        await store().endTask({ id, status: "finished", exitCode: 0, endedAt: T0 + 10 });
      }
      expect(await store().getTask("tsk_there")).toMatchObject({ host: "box-2" });
      const listed = await store().listExpiredOutputs({ endedBefore: T0 + 30, limit: 10, host: "box-1" });
      expect(ids(listed).sort()).toEqual(["tsk_here", "tsk_unnamed"]);
    });
  });
}
