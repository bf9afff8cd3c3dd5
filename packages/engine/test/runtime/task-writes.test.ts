import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { EngineStores } from "../../src/ports/engine-stores";
import { RETRY_MAX_MS } from "../../src/shared/outage";
import { openTestStores, withFailingMethod } from "../../src/testing";
import { outage, passInSteps, runtimeHarness, T0, testClock } from "./harness";

async function scratch() {
  const folder = await mkdtemp(join(tmpdir(), "oar-task-writes-"));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

describe("a task's row and its process (DESIGN §9, issue 32: found by the soak's ledger)", () => {
  it("the row is written before the command starts: a task whose row cannot be written never runs", async () => {
    const folder = await scratch();
    const stores = withFailingMethod(await openTestStores(), "tasks.insertTask");
    const h = await runtimeHarness({ stores });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    await h.prompt(session.id, "build");
    const turn = await h.provider.nextTurn();
    const marker = join(folder, "ran.txt");
    await expect(
      turn.io.startTask({ kind: "shell", name: "build", command: `echo ran > ${marker}` }),
    ).rejects.toThrow(/insertTask/);
    // A started command writes its file within milliseconds; give it far longer.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await readFile(marker, "utf8").catch(() => "never ran")).toBe("never ran");
  });

  it("the row records the process group once the command runs", async () => {
    const h = await runtimeHarness();
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    await h.prompt(session.id, "build");
    const turn = await h.provider.nextTurn();
    const taskId = await turn.io.startTask({ kind: "shell", name: "build", command: "sleep 30" });
    expect((await h.stores.tasks.getTask(taskId))?.pid).toEqual(expect.any(Number));
    turn.finish();
    await h.runtime.stopTurn(session.id);
    expect(await h.stores.tasks.getTask(taskId)).toMatchObject({ status: "stopped" });
  });

  it("a task that ends while the database does not answer is written once it answers, not left running", async () => {
    let down = false;
    const inner = await openTestStores();
    const stores = withFailingMethod(inner, "tasks.endTask", { failing: () => down, error: outage });
    const clock = testClock(T0);
    const h = await runtimeHarness({ stores, clock });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    await h.prompt(session.id, "build");
    const turn = await h.provider.nextTurn();
    down = true;
    const taskId = await turn.io.startTask({ kind: "shell", name: "mark", command: "exit 0" });
    // The command ends at once; its end waits out the outage.
    await passInSteps(clock, RETRY_MAX_MS * 2, 500);
    expect(await inner.tasks.getTask(taskId)).toMatchObject({ status: "running" });
    down = false;
    await vi.waitFor(
      async () => {
        await passInSteps(clock, 1_000, 500);
        expect(await inner.tasks.getTask(taskId)).toMatchObject({ status: "finished", exitCode: 0 });
      },
      { timeout: 10_000 },
    );
    turn.finish();
  });

  it("a claim whose commit's answer was lost (the link cut as it committed) runs its turn once; the turns behind it follow", async () => {
    const inner = await openTestStores();
    let cutAfterClaim = true;
    let claims = 0;
    const stores: EngineStores = {
      ...inner,
      async transaction(work) {
        const result = await inner.transaction(work);
        // Only a claim's transaction answers a turn record with its prompt.
        if (result !== null && typeof result === "object" && "record" in result && "prompt" in result) {
          claims += 1;
          if (cutAfterClaim) {
            cutAfterClaim = false;
            throw outage();
          }
        }
        return result;
      },
    };
    const clock = testClock(T0);
    const h = await runtimeHarness({ stores, clock });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    const first = await h.prompt(session.id, "first");
    const second = await h.prompt(session.id, "second");
    // The retry, a moment later, takes up the turn its lost answer claimed: it runs once.
    await passInSteps(clock, RETRY_MAX_MS, 100);
    const running = await h.provider.nextTurn();
    expect(running.input.turnId).toBe(first.turn.id);
    running.finish("one");
    const next = await h.provider.nextTurn();
    expect(next.input.turnId).toBe(second.turn.id);
    next.finish("two");
    await vi.waitFor(async () =>
      expect(await inner.sessions.getTurn(second.turn.id)).toMatchObject({ status: "done" }),
    );
    expect(await inner.sessions.getTurn(first.turn.id)).toMatchObject({ status: "done", reply: "one" });
    expect(claims).toBe(3);
  });

  it("a start whose commit's answer was lost (the link cut as it committed) ends its row, not left running", async () => {
    const inner = await openTestStores();
    let cutAfterCommit = false;
    const stores: EngineStores = {
      ...inner,
      async transaction(work) {
        const result = await inner.transaction(work);
        if (cutAfterCommit) {
          cutAfterCommit = false;
          throw outage();
        }
        return result;
      },
    };
    const h = await runtimeHarness({ stores });
    const session = await h.createSession({ id: "ses_a" });
    h.provider.hold();
    await h.prompt(session.id, "build");
    const turn = await h.provider.nextTurn();
    cutAfterCommit = true;
    await expect(turn.io.startTask({ kind: "shell", name: "mark", command: "exit 0" })).rejects.toMatchObject(
      {
        code: "REMOTE_RELAY_UNAVAILABLE",
      },
    );
    const [task] = await inner.tasks.listTasksOfSessions([session.id], { endedSince: 0 });
    expect(task).toMatchObject({ name: "mark", status: "failed", pid: null });
    // The session may start a task of that name again.
    const again = await turn.io.startTask({ kind: "shell", name: "mark", command: "exit 0" });
    expect(again).not.toBe(task?.id);
    turn.finish();
  });
});
