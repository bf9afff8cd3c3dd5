import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IdGenerator } from "@oar/core";
import type { FakeClock } from "@oar/core/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import type { EngineStores } from "../../src";
import type { ClusterLink } from "../../src/ports/cluster-link";
import type { RunnerProcess } from "../../src/ports/lease-store";
import { createSessionRuntime } from "../../src/runtime/create-session-runtime";
import { RUNNER_GONE_MESSAGE } from "../../src/runtime/recovery";
import { RUNNER_HEARTBEAT_MS, RUNNER_LEASE_TTL_MS } from "../../src/runtime/runner-lease";
import type { SessionRuntime } from "../../src/runtime/session-runtime";
import { createTestProvider, openTestStores } from "../../src/testing";
import { passInSteps, settle, T0, taggedIds, testClock } from "./harness";

/**
 * A cluster of runtimes on one set of stores (DESIGN §9, issue 32 item 1), each reached at its
 * address through a link that calls the runtime there, as the app's cluster route does. A runtime
 * `cut` off is not reached (its link throws), as a process whose host is down.
 */
function cluster(stores: EngineStores) {
  const byAddress = new Map<string, SessionRuntime>();
  const cut = new Set<string>();
  const sent: { address: string; op: string }[] = [];
  const reaped: { host: string; instance: string }[] = [];
  const link: ClusterLink = {
    async send(target, request) {
      sent.push({ address: target.address, op: request.op });
      const runtime = byAddress.get(target.address);
      if (runtime === undefined || cut.has(target.address)) {
        throw new Error(`connect ECONNREFUSED ${target.address}`);
      }
      return runtime.serveCluster(request, target.lease);
    },
  };
  const start = async (input: {
    readonly address: string;
    readonly host: string;
    readonly pid: number;
    readonly clock: FakeClock;
    readonly ids: IdGenerator;
    readonly alive?: (pid: number) => boolean;
  }) => {
    const provider = createTestProvider();
    const outputDir = await mkdtemp(join(tmpdir(), "oar-cluster-"));
    onTestFinished(() => rm(outputDir, { recursive: true, force: true }));
    const instance = `rpi_${input.address.replace(/\W/g, "")}`;
    const runnerProcess: RunnerProcess = {
      host: input.host,
      pid: input.pid,
      isAlive: input.alive ?? (() => true),
      instance,
      reap: async (gone) => {
        reaped.push({ host: input.host, instance: gone });
        return 1;
      },
    };
    const runtime = createSessionRuntime({
      stores,
      providers: [provider],
      clock: input.clock,
      ids: input.ids,
      callTool: async () => ({ ok: true }),
      sharedStore: true,
      runnerProcess,
      cluster: link,
      address: () => input.address,
      taskOutputDir: outputDir,
    });
    onTestFinished(() => runtime.close());
    await runtime.start();
    byAddress.set(input.address, runtime);
    const prompt = (sessionId: string, text: string) =>
      runtime.enqueuePrompt({ sessionId, text, origin: { kind: "owner" } });
    return { provider, runtime, prompt, instance };
  };
  return { start, sent, reaped, cut };
}

async function session(stores: EngineStores, id: string) {
  await stores.sessions.createSession({ id, title: id, provider: "test", model: "test-1", createdAt: T0 });
}

/** Runtime A runs a held turn of ses_a, which started a shell task that writes to its output. */
async function turnWithTaskOnA(
  stores: EngineStores,
  a: Awaited<ReturnType<ReturnType<typeof cluster>["start"]>>,
) {
  await session(stores, "ses_a");
  a.provider.hold();
  const { turn } = await a.prompt("ses_a", "long work");
  const running = await a.provider.nextTurn();
  const taskId = await running.io.startTask({
    kind: "shell",
    name: "build",
    command: "echo built line one; echo built line two; sleep 300",
  });
  const path = (await stores.tasks.getTask(taskId))?.outputPath ?? "";
  await expect.poll(() => readFile(path, "utf8").catch(() => ""), { timeout: 5_000 }).toContain("two");
  return { turn, taskId, running };
}

/** Runtimes A and B of one host; A runs ses_a's held turn and its task. */
async function twoOnOneHost() {
  const stores = await openTestStores();
  const clock = testClock(T0);
  const nodes = cluster(stores);
  const a = await nodes.start({ address: "http://a", host: "box-1", pid: 1, clock, ids: taggedIds("a") });
  const b = await nodes.start({ address: "http://b", host: "box-1", pid: 2, clock, ids: taggedIds("b") });
  return { stores, clock, nodes, a, b, ...(await turnWithTaskOnA(stores, a)) };
}

describe("a cluster of relay processes reaches the process where the work runs (DESIGN §9, issue 32 item 1)", () => {
  it("stop through another process ends the turn and the tasks running on the first", async () => {
    const { stores, nodes, b, turn, taskId } = await twoOnOneHost();

    expect(await b.runtime.stopTurn("ses_a")).toBe(true);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "stopped" });
    expect(await stores.tasks.getTask(taskId)).toMatchObject({ status: "stopped" });
    expect(nodes.sent).toEqual([{ address: "http://a", op: "stop_turn" }]);
    // Nothing runs any more: a second stop says so, and asks nobody.
    expect(await b.runtime.stopTurn("ses_a")).toBe(false);
    expect(nodes.sent).toHaveLength(1);
  });

  it("Kill through another process closes the worker where the turn runs; the session's next turn starts a new one", async () => {
    const { stores, a, b, turn, taskId } = await twoOnOneHost();

    await b.runtime.killWorker("ses_a");
    expect(a.provider.workersClosed).toEqual(["ses_a"]);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({ status: "stopped" });
    expect(await stores.tasks.getTask(taskId)).toMatchObject({ status: "stopped" });
  });

  it("archive's end of tasks through another process ends the tasks where they run", async () => {
    const { stores, nodes, b, taskId, running } = await twoOnOneHost();
    running.finish("done, the build goes on");
    await settle(20);
    expect(await stores.tasks.getTask(taskId)).toMatchObject({ status: "running" });

    await b.runtime.endTasks("ses_a");
    expect(await stores.tasks.getTask(taskId)).toMatchObject({ status: "stopped" });
    expect(nodes.sent).toEqual([{ address: "http://a", op: "end_tasks" }]);
  });

  it("a task's output on another host is read through the process of that host; with none there it is lost on that host, unreachable says to repeat", async () => {
    const stores = await openTestStores();
    const clock = testClock(T0);
    const nodes = cluster(stores);
    const a = await nodes.start({ address: "http://a", host: "box-1", pid: 1, clock, ids: taggedIds("a") });
    const b = await nodes.start({ address: "http://b", host: "box-2", pid: 1, clock, ids: taggedIds("b") });
    const { taskId } = await turnWithTaskOnA(stores, a);
    const task = await stores.tasks.getTask(taskId);
    if (task === null) {
      throw new Error("the task has no row");
    }
    expect(task).toMatchObject({ host: "box-1", runner: expect.stringMatching(/^runner:/) });

    const read = await b.runtime.readTaskOutput(task, 4096);
    expect(read).toMatchObject({
      kind: "read",
      end: { text: "built line one\nbuilt line two\n", complete: true },
    });
    expect(nodes.sent).toEqual([{ address: "http://a", op: "read_output" }]);

    nodes.cut.add("http://a");
    expect(await b.runtime.readTaskOutput(task, 4096)).toEqual({ kind: "unreachable", host: "box-1" });
    // A process of box-1 that no longer renews its lease: nobody reads box-1's files any more.
    await a.runtime.close();
    expect(await b.runtime.readTaskOutput(task, 4096)).toEqual({ kind: "lost", host: "box-1" });
    // On its own host, a process reads the file itself.
    expect(await a.runtime.readTaskOutput(task, 4096)).toMatchObject({ kind: "read" });
  });

  it("refuses a request meant for another process, and reads no file but a task's own on its host", async () => {
    const stores = await openTestStores();
    const clock = testClock(T0);
    const nodes = cluster(stores);
    const a = await nodes.start({ address: "http://a", host: "box-1", pid: 1, clock, ids: taggedIds("a") });
    const { taskId } = await turnWithTaskOnA(stores, a);
    await expect(
      a.runtime.serveCluster({ op: "stop_turn", sessionId: "ses_a" }, "runner:other"),
    ).rejects.toMatchObject({
      code: "REMOTE_RELAY_NOT_FOUND",
    });
    const [lease] = await stores.leases.listLeases({ prefix: "runner:" });
    const target = lease?.name ?? "";
    expect(
      await a.runtime.serveCluster({ op: "read_output", taskId: "tsk_unknown", maxBytes: 10 }, target),
    ).toEqual({
      end: null,
    });
    expect(await a.runtime.serveCluster({ op: "read_output", taskId, maxBytes: 10 }, target)).toMatchObject({
      end: { text: " line two\n", complete: false },
    });
  });

  it("a gone process's leftovers are ended on its host: by the recovering process when it is that host, else through a live process of it; else reported lost", async () => {
    const stores = await openTestStores();
    const nodes = cluster(stores);
    const frozen = testClock(T0);
    const clock = testClock(T0);
    // A on box-1 dies (its clock stands: it never renews); B on box-2 recovers it; C on box-1 lives.
    const a = await nodes.start({
      address: "http://a",
      host: "box-1",
      pid: 1,
      clock: frozen,
      ids: taggedIds("a"),
    });
    await nodes.start({ address: "http://b", host: "box-2", pid: 1, clock, ids: taggedIds("b") });
    await nodes.start({ address: "http://c", host: "box-1", pid: 2, clock, ids: taggedIds("c") });
    const { turn } = await turnWithTaskOnA(stores, a);

    await passInSteps(clock, RUNNER_LEASE_TTL_MS + RUNNER_HEARTBEAT_MS);
    expect(await stores.sessions.getTurn(turn.id)).toMatchObject({
      status: "error",
      error: RUNNER_GONE_MESSAGE,
    });
    // Exactly once, on box-1, for A's instance: by C itself, or by B through C.
    expect(nodes.reaped).toEqual([{ host: "box-1", instance: a.instance }]);
  });

  it("a blocking question answered through another process reaches the turn waiting where it runs; one the link missed, at the next heartbeat", async () => {
    const stores = await openTestStores();
    const clock = testClock(T0);
    const nodes = cluster(stores);
    const a = await nodes.start({ address: "http://a", host: "box-1", pid: 1, clock, ids: taggedIds("a") });
    const b = await nodes.start({ address: "http://b", host: "box-1", pid: 2, clock, ids: taggedIds("b") });
    await session(stores, "ses_a");
    const { turn } = await a.prompt("ses_a", "ask: Deploy now? | Yes | No");
    const pendingQuestion = async () => {
      const pending = () => stores.questions.listBlockingQuestions({ sessionId: "ses_a", status: "pending" });
      await expect.poll(pending).toHaveLength(1);
      return (await pending())[0]?.id ?? "";
    };
    expect(await b.runtime.answerQuestion(await pendingQuestion(), { choices: ["Yes"] })).toBe(true);
    expect(nodes.sent).toEqual([{ address: "http://a", op: "question_answered" }]);
    expect(await a.runtime.waitForTurn(turn.id, 1_000)).toMatchObject({
      status: "done",
      text: "answer: Yes",
    });

    // The link is down when the second question is answered: A finds the answer at its next beat.
    const second = await a.prompt("ses_a", "ask: Really? | Yes | No");
    const questionId = await pendingQuestion();
    nodes.cut.add("http://a");
    expect(await b.runtime.answerQuestion(questionId, { choices: ["No"] })).toBe(true);
    await settle(20);
    expect(await stores.sessions.getTurn(second.turn.id)).toMatchObject({ status: "running" });
    await passInSteps(clock, RUNNER_HEARTBEAT_MS);
    expect(await a.runtime.waitForTurn(second.turn.id, 1_000)).toMatchObject({
      status: "done",
      text: "answer: No",
    });
  });
});
