import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Clock, type IdGenerator, type Logger, RelayError, silentLogger } from "@oar/core";
import type { ClusterLink, ClusterReply, ClusterRequest } from "../ports/cluster-link";
import { type EngineObserver, silentObserver } from "../ports/engine-observer";
import type { EngineStores } from "../ports/engine-stores";
import type { RunnerProcess } from "../ports/lease-store";
import type { AgentAccess, Provider, TurnUsage } from "../ports/provider";
import { readSettings } from "../settings/settings";
import { errorMessage } from "../shared/error-message";
import { readFileEnd } from "../tasks/output-file";
import { createTaskHost } from "../tasks/task-host";
import { killLostGroup } from "../tasks/task-process";
import { createWakeups } from "../wakeups";
import { createBlockingQuestions } from "./blocking-questions";
import { createCluster } from "./cluster";
import { createOutageWaits } from "./outage-waits";
import { createQueueDriver } from "./queue-driver";
import { recoverAtStart, recoverExpiredRunners, undrivenQueues } from "./recovery";
import { createRunnerLease, RUNNER_LEASE_PREFIX } from "./runner-lease";
import { createRunningTurns } from "./running-turns";
import type { RuntimeContext } from "./runtime-context";
import type { SessionRuntime } from "./session-runtime";
import { createSnapshots } from "./turn-snapshot";
import { createTurnWatch } from "./turn-watch";
import { untilItLands } from "./until-it-lands";
import { createTurnWaits } from "./wait-for-turn";
import { createWorkerPool, drivenFromOutsideError, findProvider } from "./worker-pool";

export interface SessionRuntimeOptions {
  readonly stores: EngineStores;
  /** This relay's name, for the outbox's events; default "this". */
  readonly relayName?: string;
  readonly providers: readonly Provider[];
  /** Brings `providers` up to date with the owner's settings before a worker starts. */
  readonly refreshProviders?: () => Promise<void>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger?: Logger;
  /** Told of each turn that ends (the app's metrics); default none. */
  readonly observer?: EngineObserver;
  /** Runs relay_tool as the session (a worker's `!tool`, a CLI agent's MCP call). */
  readonly callTool: (sessionId: string, input: unknown) => Promise<unknown>;
  /** The relay's URL and an agent token of a session (DESIGN §5); default none: CLI agents get no relay access. */
  readonly agentAccess?: (sessionId: string) => Promise<AgentAccess | null>;
  /** Counts a turn's cost and tokens toward its provider's usage (§10); default: not counted. */
  readonly reportUsage?: (sessionId: string, provider: string, usage: TurnUsage) => Promise<void>;
  /** The environment background tasks start from; default the relay's own. */
  readonly childEnv?: Readonly<Record<string, string | undefined>>;
  /** Where background tasks' output files go (DESIGN §3: under the data dir); default a folder in the system's temp dir. */
  readonly taskOutputDir?: string;
  /** Ends a task group a relay before this one left running; default: SIGKILL to the group, when /proc shows it is that task's. */
  readonly killLostTask?: (pid: number, taskId: string) => Promise<boolean>;
  /** The max turn duration in seconds (R-WST-04); default: the owner setting `maxTurnSeconds`. */
  readonly maxTurnSeconds?: () => Promise<number>;
  /**
   * Other relay processes use the same stores (Postgres, DESIGN §9): at start only orphaned turns
   * end, the turns of a process whose lease expired are recovered while this one runs, and waits
   * look for turns other processes end. Default false: this process is the stores' only user.
   */
  readonly sharedStore?: boolean;
  /**
   * This process (host and pid) and how it tells whether another pid of its host runs: with
   * shared stores, the turns of a relay process of this host that is gone (kill -9, a crash) end
   * at once, at start or at the next heartbeat, instead of when its lease expires. Default none:
   * other processes' turns end when their leases expire.
   */
  readonly runnerProcess?: RunnerProcess;
  /**
   * How this process reaches the others sharing its stores (DESIGN §9): a stop, a Kill or an
   * archive reaches the process running the turn or task, a task's output is read on its host.
   * Default none: only what runs here is stopped and read.
   */
  readonly cluster?: ClusterLink;
  /** How the others reach this process (its lease says it); undefined until it listens. */
  readonly address?: () => string | undefined;
}

/** The session runtime of this process: turn queues, workers, waits and question cards. */
export function createSessionRuntime(options: SessionRuntimeOptions): SessionRuntime {
  let closed = false;
  let started = false;
  const ctx: RuntimeContext = {
    stores: options.stores,
    relayName: options.relayName ?? "this",
    // Read through, so that providers the owner adds while the relay runs are seen.
    get providers() {
      return options.providers;
    },
    refreshProviders: options.refreshProviders ?? (async () => {}),
    clock: options.clock,
    ids: options.ids,
    logger: options.logger ?? silentLogger,
    observer: options.observer ?? silentObserver,
    callTool: options.callTool,
    agentAccess: options.agentAccess ?? (async () => null),
    reportUsage: options.reportUsage ?? (async () => {}),
    // The host is made on this context, so the context hands it out once it exists.
    get tasks() {
      return tasks;
    },
    maxTurnSeconds:
      options.maxTurnSeconds ?? (async () => (await readSettings(options.stores.settings)).maxTurnSeconds),
    isClosed: () => closed,
    sharedStore: options.sharedStore ?? false,
    runnerProcess: options.runnerProcess,
    runner: () => lease.current(),
    address: options.address ?? (() => undefined),
    outages: createOutageWaits({
      clock: options.clock,
      isClosed: () => closed,
      // One row by its key: the cheapest question every store answers.
      probe: () => options.stores.leases.getLease(lease.current()?.lease ?? RUNNER_LEASE_PREFIX),
    }),
  };
  const outputDir = options.taskOutputDir ?? join(tmpdir(), "oar-relay-tasks");
  const tasks = createTaskHost(ctx, {
    outputDir,
    killLost: options.killLostTask ?? killLostGroup,
    removeFile: (path) => rm(path, { force: true }),
    retryWrite: (what, attempt) => untilItLands(ctx, what, attempt),
    ...(options.childEnv === undefined ? {} : { env: options.childEnv }),
  });
  const { sessions } = ctx.stores;
  const waiters = createWakeups();
  const running = createRunningTurns();
  const workers = createWorkerPool(ctx);
  const questions = createBlockingQuestions(ctx, waiters);
  const snapshots = createSnapshots(ctx, { running, questions });
  const waits = createTurnWaits(ctx, {
    snapshots,
    waiters,
    ...(ctx.sharedStore ? { watch: createTurnWatch(ctx, waiters) } : {}),
  });
  const queues = createQueueDriver(ctx, { running, workers, questions, waiters });
  const kickAll = (sessionIds: readonly string[]) => {
    for (const sessionId of sessionIds) {
      queues.kick(sessionId);
    }
  };
  const cluster = createCluster(ctx, options.cluster, () => lease.current()?.lease);
  /** The processes other than this one that run the session's turn or tasks. */
  const runnersElsewhere = async (sessionId: string) => {
    const own = lease.current()?.lease;
    const [turns, sessionTasks] = await Promise.all([
      sessions.listActiveTurns({ sessionId }),
      ctx.stores.tasks.listTasksOfSessions([sessionId], { endedSince: null }),
    ]);
    const leases = [
      ...turns.flatMap((turn) => (turn.status === "running" && turn.runner ? [turn.runner.lease] : [])),
      ...sessionTasks.flatMap((task) => (task.status === "running" && task.runner ? [task.runner] : [])),
    ];
    return new Set(leases.filter((name) => name !== own));
  };
  const stopHere = async (sessionId: string) => {
    const endingTasks = tasks.endSession(sessionId);
    const turn = running.ofSession(sessionId);
    if (!turn || turn.stopReason !== null) {
      return (await endingTasks) > 0;
    }
    turn.stop({ kind: "stop" });
    await Promise.all([turn.settled, endingTasks]);
    return true;
  };
  const killHere = async (sessionId: string) => {
    const turn = running.ofSession(sessionId);
    // The worker is forgotten before the turn ends, so that the next turn starts a new one.
    const closing = workers.close(sessionId);
    turn?.stop({ kind: "kill" });
    await Promise.all([closing, tasks.endSession(sessionId)]);
    await turn?.settled;
  };
  /** What another process of the cluster asks of this one: done here only, never passed on. */
  const serveHere = async (request: ClusterRequest): Promise<ClusterReply<ClusterRequest>> => {
    switch (request.op) {
      case "stop_turn":
        return { stopped: await stopHere(request.sessionId) };
      case "kill_worker":
        await killHere(request.sessionId);
        return {};
      case "end_tasks":
        await tasks.endSession(request.sessionId);
        return {};
      case "read_output": {
        // Only a task's own output file, and only one on this host: the route reads nothing else.
        const task = await ctx.stores.tasks.getTask(request.taskId);
        const host = ctx.runnerProcess?.host;
        if (task === null || task.outputPath === null || host === undefined || task.host !== host) {
          return { end: null };
        }
        return { end: await readFileEnd(task.outputPath, request.maxBytes) };
      }
      case "question_answered":
        return { delivered: await questions.answeredElsewhere(request.questionId) };
      case "reap":
        return { ended: (await ctx.runnerProcess?.reap?.(request.instance)) ?? 0 };
    }
  };

  const lease = createRunnerLease(ctx, {
    lost() {
      // Another process recovered these turns: they stop here and nothing of them is written.
      for (const turn of running.all()) {
        turn.stop({ kind: "lease_lost" });
      }
    },
    async beat() {
      await tasks
        .sweep()
        .catch((error: unknown) =>
          ctx.logger.warn("Old task output could not be removed.", { error: errorMessage(error) }),
        );
      const recovered = await recoverExpiredRunners(ctx, lease.current()?.lease, cluster.reap);
      kickAll(recovered);
      await questions.recheck();
      // A queue whose process died, or whose kick was lost, is driven from here.
      kickAll(await undrivenQueues(ctx));
    },
  });

  const queuePrompt: SessionRuntime["queuePrompt"] = async (
    stores,
    { sessionId, text, origin, provenance },
  ) => {
    const session = await stores.sessions.getSession(sessionId);
    if (!session) {
      throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No session ${sessionId} on this relay.`, {
        context: { session: sessionId },
      });
    }
    if (findProvider(ctx.providers, session.provider)?.info.drivenFromOutside) {
      throw drivenFromOutsideError(session.id, session.provider);
    }
    const from = provenance ?? origin.provenance;
    const messageId = ctx.ids.next("message");
    const turnId = ctx.ids.next("turn");
    const now = ctx.clock.now();
    // The prompt and its turn are one change: a turn never lacks its prompt, nor a prompt its turn.
    return stores.transaction(async (tx) => {
      await tx.sessions.appendMessage({
        id: messageId,
        sessionId,
        turnId,
        role: "user",
        text,
        provenance: from ?? null,
        createdAt: now,
      });
      const turn = await tx.sessions.enqueueTurn({
        id: turnId,
        sessionId,
        promptMessageId: messageId,
        origin: from === undefined ? origin : { ...origin, provenance: from },
        queuedAt: now,
      });
      return { messageId, turn };
    });
  };

  return {
    queuePrompt,

    kick: (sessionId) => queues.kick(sessionId),

    async enqueuePrompt(input) {
      const queued = await queuePrompt(ctx.stores, input);
      queues.kick(input.sessionId);
      return queued;
    },

    snapshot: (turnId) => snapshots.byId(turnId),

    waitForTurn: (turnId, ms, signal) => waits.wait(turnId, ms, signal),

    turnOfMessage: (messageId) => sessions.findTurnByPromptMessage(messageId),

    inFlight(sessionId) {
      const turn = running.ofSession(sessionId);
      return turn ? { turnId: turn.turnId, text: turn.text } : null;
    },

    async stopTurn(sessionId) {
      const [here, elsewhere] = await Promise.all([
        stopHere(sessionId),
        runnersElsewhere(sessionId).then((leases) =>
          leases.size === 0 ? [] : cluster.tell({ op: "stop_turn", sessionId }, leases),
        ),
      ]);
      return here || elsewhere.some((reply) => reply.stopped);
    },

    async killWorker(sessionId) {
      // Any process may keep an idle worker of the session: each closes its own.
      await Promise.all([killHere(sessionId), cluster.tell({ op: "kill_worker", sessionId })]);
    },

    async endTasks(sessionId) {
      const elsewhere = await runnersElsewhere(sessionId);
      await Promise.all([
        tasks.endSession(sessionId),
        elsewhere.size === 0 ? undefined : cluster.tell({ op: "end_tasks", sessionId }, elsewhere),
      ]);
    },

    readTaskOutput: (task, maxBytes) => cluster.readOutput(task, maxBytes),

    announce: () => lease.renewNow(),

    async serveCluster<R extends ClusterRequest>(request: R, target: string): Promise<ClusterReply<R>> {
      const own = lease.current()?.lease;
      if (own === undefined || target !== own) {
        throw new RelayError(
          "REMOTE_RELAY_NOT_FOUND",
          `This relay process is ${own ?? "between leases"}, not ${target}: the cluster's registry is out of date.`,
        );
      }
      return (await serveHere(request)) as ClusterReply<R>;
    },

    taskLastOutputAt: (taskId) => tasks.lastOutputAt(taskId),

    pendingQuestions: (sessionId) => questions.pending(sessionId),

    async answerQuestion(questionId, answer) {
      const answered = await questions.answer(questionId, answer);
      if (answered === false) {
        return false;
      }
      if (answered.elsewhere) {
        // The turn waits in the process running it: the answer is stored, that process is told.
        const turn = await sessions.getTurn(answered.turnId);
        const runner = turn?.status === "running" ? turn.runner?.lease : undefined;
        if (runner !== undefined && runner !== lease.current()?.lease) {
          await cluster.tell({ op: "question_answered", questionId }, new Set([runner]));
        }
      }
      return true;
    },

    async start() {
      // Recovery runs once, before this process runs turns of its own.
      if (started) {
        return;
      }
      started = true;
      await mkdir(outputDir, { recursive: true });
      await recoverAtStart(ctx);
      await lease.start();
      // On the embedded database too: the process before left its lease, and maybe children, behind.
      const recovered = await recoverExpiredRunners(ctx, lease.current()?.lease, cluster.reap);
      if (ctx.sharedStore) {
        kickAll(recovered);
      }
      kickAll(await undrivenQueues(ctx));
    },

    async close() {
      if (closed) {
        return;
      }
      closed = true;
      // A write waiting out an outage gives up now (the next start recovers it), not at its next step.
      ctx.outages.wake();
      for (const turn of running.all()) {
        turn.stop({ kind: "shutdown" });
      }
      await waits.endAll();
      await Promise.all([workers.closeAll(), tasks.closeAll()]);
      await queues.drained();
      // Last: another process may recover the turns left running from now on.
      await lease.close();
    },
  };
}
