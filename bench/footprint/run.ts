// bench/footprint: the resident memory of a real relay process (`oar-relay start`) on PGlite and
// on Postgres, idle after start and with N sessions made through the owner API, and the bytes each
// held `wait` costs against a bare Hono server holding the same requests, all in one run.
// Goals (issue 8, item 9): the PGlite relay idles at ≤ 300 MB after start and with 1,000
// sessions; a held wait costs ≤ 1.5× the bare server's bytes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startChildRelay } from "../lib/child-relay";
import { type HeldRequests, holdRequests } from "../lib/held-requests";
import { inParallel, ownerClient } from "../lib/owner-api";
import { startRelayProcess } from "../lib/relay-process";
import { COLLECT_ON_SIGNAL_ARGS, collectedRss, idleRss } from "../lib/rss";
import { createScratchDatabase, type ScratchDatabase } from "../lib/scratch-database";

const N = Number(process.argv[2] ?? 1000);
// The server the Postgres leg makes its scratch database on (and drops it from afterwards).
const ADMIN_URL = process.argv[3] ?? "postgres://postgres@127.0.0.1:5432/postgres";
const OWNER_TOKEN = "bench-footprint-owner-token";
const IDLE_GOAL_BYTES = 300 * 1024 * 1024;
const WAIT_GOAL_RATIO = 1.5;
const WARM_UP = Math.max(10, Math.round(N / 10));
const STEPS = 5;

/** An idle resident set: once the garbage is collected, and 3 s after the last request. */
interface Idle {
  readonly settled: number;
  readonly justAfter: number;
}

interface RelayFigures {
  readonly afterStart: Idle;
  readonly withSessions: Idle;
  readonly perWait: number;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const met = (ok: boolean) => (ok ? "met" : "NOT met");

/** A line on stderr saying how far the run is, so a long run does not look stuck. */
function progress(label: string, since: number): void {
  console.error(`· ${label} (${((performance.now() - since) / 1000).toFixed(1)} s)`);
}

async function idle(pid: number): Promise<Idle> {
  const justAfter = await idleRss(pid);
  return { justAfter, settled: await collectedRss(pid) };
}

/**
 * Holds `WARM_UP` requests and lets them go, so every path the measured ones take has run once;
 * then holds N more, `STEPS` times over, none let go, and samples the live resident set after
 * each step. The bytes per request are the median step's growth divided by N: memory the process
 * gives back on its own during one step (an allocator arena, a pool) moves that step only.
 */
async function bytesPerHeldRequest(
  pid: number,
  url: string,
  init: { readonly headers: Readonly<Record<string, string>>; readonly body: string },
): Promise<number> {
  const warm = await holdRequests(url, init, WARM_UP);
  warm.assertHeld();
  await warm.release();
  const held: HeldRequests[] = [];
  const steps: number[] = [];
  let before = await collectedRss(pid);
  try {
    for (let step = 0; step < STEPS; step++) {
      const requests = await holdRequests(url, init, N);
      held.push(requests);
      const after = await collectedRss(pid);
      requests.assertHeld();
      steps.push((after - before) / N);
      before = after;
    }
  } finally {
    await Promise.all(held.map((requests) => requests.release()));
  }
  console.error(`  each step of ${N}: ${steps.map(kb).join(", ")} per request`);
  return [...steps].sort((a, b) => a - b)[Math.floor(STEPS / 2)] ?? Number.NaN;
}

async function measureRelay(name: string, env: Readonly<Record<string, string>>): Promise<RelayFigures> {
  let since = performance.now();
  const relay = await startRelayProcess(
    { RELAY_NAME: "footprint", RELAY_OWNER_TOKEN: OWNER_TOKEN, ...env },
    COLLECT_ON_SIGNAL_ARGS,
  );
  try {
    progress(`${name}: relay started`, since);
    const { post } = ownerClient(relay.base, OWNER_TOKEN);
    const afterStart = await idle(relay.pid);
    since = performance.now();
    // Sessions as a user has them: each with a conversation, its turn run to the end.
    await inParallel(N, (i) => post("/v1/owner/sessions", { title: `session ${i}`, text: "!reply ok" }));
    progress(`${name}: ${N} sessions created`, since);
    const withSessions = await idle(relay.pid);

    since = performance.now();
    const caller = await post("/v1/owner/sessions", { title: "waiting caller" });
    const { token } = (await post(`/v1/owner/sessions/${caller.id}/token`, {})) as { token: string };
    const target = await post("/v1/owner/sessions", { title: "long turn", text: "!sleep 3600000" });
    const perWait = await bytesPerHeldRequest(relay.pid, `${relay.base}/v1/tool`, {
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ action: "wait", relay: "this", session: target.id, wait_seconds: 600 }),
    });
    progress(`${name}: held waits measured`, since);
    return { afterStart, withSessions, perWait };
  } finally {
    await relay.stop();
  }
}

async function measurePglite(): Promise<RelayFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), "oar-footprint-"));
  try {
    return await measureRelay("PGlite", { RELAY_DATA_DIR: dataDir });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * On a scratch database made through ADMIN_URL with psql and dropped afterwards, named after the
 * URL's database (`oar_bench_<random>` from `postgres`); a sentence saying why when there is none.
 */
async function measurePostgres(): Promise<RelayFigures | string> {
  let scratch: ScratchDatabase;
  try {
    scratch = await createScratchDatabase(ADMIN_URL);
  } catch (cause) {
    return `skipped: psql made no database on ${new URL(ADMIN_URL).host} (${(cause as Error).message})`;
  }
  const dataDir = await mkdtemp(join(tmpdir(), "oar-footprint-"));
  try {
    return await measureRelay("Postgres", { RELAY_DATA_DIR: dataDir, DATABASE_URL: scratch.url });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await scratch.drop();
  }
}

async function measureBare(): Promise<number> {
  const since = performance.now();
  const bare = await startChildRelay(
    join(import.meta.dirname, "bare-server.ts"),
    [],
    join(import.meta.dirname, ".."),
    COLLECT_ON_SIGNAL_ARGS,
  );
  try {
    if (bare.child.pid === undefined) {
      throw new Error("the bare server has no pid");
    }
    const perWait = await bytesPerHeldRequest(bare.child.pid, `${bare.base}/v1/tool`, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "wait", relay: "this", session: "ses_bare", wait_seconds: 600 }),
    });
    progress("bare Hono: held requests measured", since);
    return perWait;
  } finally {
    await bare.stop();
  }
}

const pglite = await measurePglite();
const postgres = await measurePostgres();
const bare = await measureBare();
const peer = typeof postgres === "string" ? undefined : postgres;

const idleCell = (figure: Idle) => `${mb(figure.settled)} (${mb(figure.justAfter)})`;
console.log(
  `\nbench/footprint — resident set of the relay process (oar-relay start, from source), ${N} sessions, ${N} × ${STEPS} held waits`,
);
console.log(`| process | idle after start | idle with ${N} sessions | per held wait |`);
console.log("| --- | ---: | ---: | ---: |");
for (const [name, figures] of [
  ["relay on PGlite", pglite],
  ["relay on Postgres", postgres],
] as const) {
  console.log(
    typeof figures === "string"
      ? `| ${name} | ${figures} | | |`
      : `| ${name} | ${idleCell(figures.afterStart)} | ${idleCell(figures.withSessions)} | ${kb(figures.perWait)} |`,
  );
}
console.log(`| bare Hono server | | | ${kb(bare)} |`);
console.log(
  "Idle: once the garbage is collected (V8 gets there by itself within a minute or two of quiet); in brackets 3 s after the last request.",
);
if (N < 1000) {
  console.log(`With ${N} held waits a step, a few MB of noise weigh more: the per-wait figures want 1000.`);
}
console.log("");

for (const [label, figure, peerFigure] of [
  ["after start", pglite.afterStart, peer?.afterStart],
  [`with ${N} sessions`, pglite.withSessions, peer?.withSessions],
] as const) {
  const ratio =
    peerFigure === undefined
      ? ""
      : `; ${(figure.settled / peerFigure.settled).toFixed(2)}× the relay on Postgres`;
  console.log(
    `PGlite idle ${label}: ${mb(figure.settled)} (goal ≤ ${mb(IDLE_GOAL_BYTES)}) ${met(figure.settled <= IDLE_GOAL_BYTES)}${ratio}`,
  );
}
for (const [name, figures] of [
  ["PGlite", pglite],
  ["Postgres", peer],
] as const) {
  if (figures !== undefined) {
    const ratio = figures.perWait / bare;
    console.log(
      `held wait on ${name} vs bare Hono: ${ratio.toFixed(2)}× bytes (goal ≤ ${WAIT_GOAL_RATIO}×) ${met(ratio <= WAIT_GOAL_RATIO)}`,
    );
  }
}
