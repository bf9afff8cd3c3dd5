// bench/soak: the proof that a cluster loses nothing. Three relay processes (`oar-relay start`) on
// one scratch Postgres database, each as if on its own host and each through its own TCP proxy to
// the database, behind HAProxy; for N minutes a mixed load through the balancer (the owner's
// sessions and prompts, agents' create_session, send + wait, schedules, watchers, questions
// answered in the Inbox, background tasks read and stopped) while a seeded plan kills a process
// (kill -9, back 5 s later), cuts a process's database link and freezes the balancer's link to
// one. Then a quiet period and the ledger: every acknowledged change present, every turn run at
// most once, every slot fired once, every (watcher, event) delivered once, nothing left running,
// no REMOTE_RELAY_INTERNAL, no process left behind. Exits 1 when the ledger is not clean.
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { seededRandom } from "@oar/core/testing";
import { openBenchDatabase } from "../lib/bench-database";
import { ensureHaproxy } from "../lib/haproxy";
import { killAll, processesCarrying } from "../lib/left-behind";
import { HEAP_LOG_ARGS } from "../lib/process-memory";
import { type RelayCluster, startRelayCluster } from "../lib/relay-cluster";
import { createScratchDatabase } from "../lib/scratch-database";
import { Calls } from "./calls";
import type { Soak } from "./cast";
import { readOwnerEvents } from "./event-stream";
import { type FaultRecord, planFaults, runFaults } from "./faults";
import { computeFigures } from "./figures";
import { Journal } from "./journal";
import { watchLeases } from "./lease-watch";
import { readLedger } from "./ledger";
import { readMarks, readRows } from "./ledger-reads";
import { watchMemory } from "./memory-watch";
import { parseOptions, USAGE } from "./options";
import { ownerDesk } from "./owner-desk";
import { agentLane, ownerLane } from "./prompting";
import { lostTaskEnds, relayLogErrors } from "./relay-logs";
import { printReport, type RunHeader, writeLedger } from "./report";
import { castSoak } from "./setup";
import { questionLane, scheduleLane, taskLane, unscheduleRepeating, watcherLane } from "./side-work";
import { tableSizes } from "./tables";
import { TurnScripts } from "./turn-script";

const OWNER_TOKEN = "bench-soak-owner-token";
const RELAY_NAME = "soak";
/** The member no kill reaches: one process lives the whole run, so its memory slope means something. */
const SPARED = new Set([0]);
const MEMORY_EVERY_MS = 10_000;
const LEASES_EVERY_MS = 2_000;
/** The owner's event stream connects again this often, to land on each process in turn. */
const STREAM_RECONNECT_MS = 25_000;
/** An event this soon after its subscription was made may or may not reach it (routing is under way). */
const SUBSCRIPTION_GRACE_MS = 2_000;
/** What the relay hands a task (OAR_TASK_ID) or an agent it starts (OAR_SESSION, OAR_AGENT_TOKEN). */
const WORK_ENV = ["OAR_TASK_ID", "OAR_SESSION", "OAR_AGENT_TOKEN"];

const options = parseOptions(process.argv.slice(2));
if (typeof options === "string") {
  console.error(`${options}\n${USAGE}`);
  process.exit(2);
}
const began = performance.now();
function progress(label: string): void {
  console.error(`· ${label} (${((performance.now() - began) / 1000).toFixed(1)} s)`);
}

const runMarker = `sk${randomBytes(3).toString("hex")}`;
const out = options.out ?? join(import.meta.dirname, "..", "..", ".tmp", "soak-ledger.json");
const haproxy = await ensureHaproxy(progress);
const scratch = await createScratchDatabase(options.adminUrl);
const dir = await mkdtemp(join(tmpdir(), "oar-soak-"));
const workDir = join(dir, "work");
await mkdir(workDir);
let cluster: RelayCluster | undefined;
let exitCode = 1;

// Ctrl-C: the relays, HAProxy and what they started go too, not only this process.
process.once("SIGINT", () => {
  void (async () => {
    console.error("· interrupted: stopping the cluster");
    await cluster?.stop();
    killAll(await processesCarrying(runMarker, new Set()));
    if (!options.keep) {
      await scratch.drop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
    process.exit(130);
  })();
});

try {
  const loadAverageBefore = loadavg()[0] ?? 0;
  cluster = await startRelayCluster({
    processes: options.processes,
    databaseUrl: scratch.url,
    dir: join(dir, "hosts"),
    env: {
      RELAY_NAME,
      RELAY_OWNER_TOKEN: OWNER_TOKEN,
      RELAY_ALLOWED_ROOTS: workDir,
      // Handed on to every task and agent process the relays start: `left-behind.ts` looks for it.
      OAR_SOAK_RUN: runMarker,
    },
    nodeArgs: HEAP_LOG_ARGS,
  });
  progress(
    `${options.processes} relays on ${scratch.name} behind ${haproxy} at ${cluster.base}${cluster.separateHosts ? ", each on a host of its own" : ""}`,
  );
  const db = await openBenchDatabase(scratch.url);
  try {
    const calls = new Calls(cluster.base, OWNER_TOKEN);
    const journal = new Journal();
    const random = seededRandom(options.seed);
    const scripts = new TurnScripts(runMarker, join(workDir, "marks.log"), random);
    const events = readOwnerEvents(cluster.base, OWNER_TOKEN, STREAM_RECONNECT_MS);
    const base = { calls, journal, scripts, random, loadEnd: Number.POSITIVE_INFINITY };
    const desk = ownerDesk({
      ...base,
      agents: [],
      watchers: [],
      ownerSessions: [],
      taskHosts: [],
      tokens: new Map(),
    });
    const cast = await castSoak(base);
    progress(
      `cast: ${cast.agents.length} agents with ${cast.agents.reduce((n, a) => n + a.targets.length, 0)} sessions, ${cast.ownerSessions.length} owner sessions, ${cast.taskHosts.length} task hosts, ${cast.watchers.length} watchers with ${journal.subscriptions.length} subscriptions`,
    );
    const memory = watchMemory(cluster, MEMORY_EVERY_MS);
    const leases = watchLeases(db, LEASES_EVERY_MS);
    const tablesAtStart = await tableSizes(db);
    const loadStart = Date.now();
    const soak: Soak = { ...cast, loadEnd: loadStart + options.loadMs };
    const faults: FaultRecord[] = [];
    const plan = options.calm ? [] : planFaults(options.seed, options.loadMs);
    progress(`load for ${(options.loadMs / 60_000).toFixed(1)} min, ${plan.length} faults planned`);
    const faulting = runFaults({
      plan,
      cluster,
      db,
      loadStart,
      seed: options.seed,
      spared: SPARED,
      records: faults,
      log: (line) => progress(line),
    });
    await Promise.all([
      ownerLane(soak),
      ...soak.agents.map((agent) => agentLane(soak, agent)),
      scheduleLane(soak, Math.max(1, Math.min(3, Math.round(options.loadMs / 120_000)))),
      questionLane(soak),
      watcherLane(soak),
      ...soak.taskHosts.map((host) => taskLane(soak, host)),
    ]);
    await faulting;
    const loadEnd = Date.now();
    await unscheduleRepeating(soak);
    for (const agent of soak.agents) {
      // The owner writes in each agent's conversation: a firing its anti-loop guard held goes out (R-SCH-19).
      const note = await calls.owner("POST", `/v1/owner/sessions/${agent.id}/messages`, {
        text: "Thanks, that will do.",
      });
      const message = note.body?.message as { id?: string } | undefined;
      if (note.ok && typeof message?.id === "string") {
        journal.ownerNotes.push({ session: agent.id, messageId: message.id });
      }
    }
    progress(`load over: ${calls.records.length} calls; quiet for ${options.quietMs / 1000} s`);
    await sleep(options.quietMs);

    const rows = await readRows(db);
    const marks = await readMarks(scripts.marksFile);
    const relayPids = new Set(cluster.members.flatMap((member) => member.instances.map((i) => i.pid)));
    const leftBehind = await processesCarrying(runMarker, relayPids, WORK_ENV);
    await events.stop();
    await desk.stop();
    const instances = await memory.stop();
    await leases.stop();
    const tablesAtEnd = await tableSizes(db);
    const memberOfPid = new Map(
      cluster.members.flatMap((member) => member.instances.map((i) => [i.pid, member.name] as const)),
    );
    const logErrors = await relayLogErrors(cluster.members);
    const checks = readLedger({
      journal,
      calls: calls.records,
      rows,
      marks,
      events,
      leftBehind,
      memberOfPid,
      leasePids: leases.pids,
      kills: faults.filter((fault) => fault.kind === "kill"),
      lostTaskEnds: lostTaskEnds(logErrors),
      subscriptionGraceMs: SUBSCRIPTION_GRACE_MS,
    });
    const figures = computeFigures({
      calls: calls.records,
      sendWaits: journal.sendWaits,
      faults,
      rows,
      memory: instances,
      tablesAtStart,
      tablesAtEnd,
      loadStart,
      loadEnd,
    });
    const header: RunHeader = {
      seed: options.seed,
      processes: options.processes,
      loadMinutes: options.loadMs / 60_000,
      quietSeconds: options.quietMs / 1000,
      separateHosts: cluster.separateHosts,
      haproxy,
      database: scratch.name,
      calm: options.calm,
      loadAverage: [loadAverageBefore, loadavg()[0] ?? 0],
    };
    printReport(header, checks, figures, logErrors);
    await writeLedger(out, {
      header,
      checks,
      figures,
      extra: { faults, plan, logErrors, journal: { tasks: journal.tasks, schedules: journal.schedules } },
    });
    console.log(`ledger written to ${out}`);
    exitCode = checks.every((check) => check.passed) ? 0 : 1;
  } finally {
    await db.close();
  }
} finally {
  await cluster?.stop();
  // Whatever the relays left running (a task whose stop never reached it) goes with the run.
  const left = await processesCarrying(runMarker, new Set());
  killAll(left);
  if (left.length > 0) {
    progress(`killed ${left.length} processes the run left behind`);
  }
  if (options.keep) {
    console.log(`kept: psql ${scratch.url}; the run's folder ${dir}`);
  } else {
    await scratch.drop();
    await rm(dir, { recursive: true, force: true });
  }
}
process.exit(exitCode);
