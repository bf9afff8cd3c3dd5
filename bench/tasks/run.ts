// bench/tasks: what read_task_output costs on a real relay process (`oar-relay start`) for the
// tail of a 1 KB output and of a 1 GB one, on PGlite and on Postgres, against GNU `tail -n 50` on
// the same files and against reading the whole file for its end, all in one run.
// Goal (issue 10, item 4): the tail of 1 GB costs the same as the tail of 1 KB (ratio ≤ 1.5).
import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ownerClient } from "../lib/owner-api";
import { startRelayProcess } from "../lib/relay-process";
import { createScratchDatabase, type ScratchDatabase } from "../lib/scratch-database";

const run = promisify(execFile);
const CALLS = Number(process.argv[2] ?? 200);
const ADMIN_URL = process.argv[3] ?? "postgres://postgres@127.0.0.1:5432/postgres";
const OWNER_TOKEN = "bench-tasks-owner-token";
const BIG_BYTES = 1024 ** 3;
// Lines that differ (a log, not one line repeated, which read_task_output would fold into one).
const LINE_FORMAT = "2026-12-03T00:00:00Z INFO worker 7: processed batch %012.0f in 12 ms";
const GOAL_RATIO = 1.5;

interface Stats {
  readonly p50: number;
  readonly p99: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

async function timed(count: number, one: () => Promise<unknown>): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await one();
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

/** The end of a file read the way a tool without seeking would: all of it, keeping the last lines. */
async function wholeFileTail(path: string, lines: number): Promise<string[]> {
  let kept: string[] = [];
  let rest = "";
  for await (const chunk of createReadStream(path, { encoding: "utf8", highWaterMark: 1024 * 1024 })) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    kept = [...kept, ...parts].slice(-lines);
  }
  return kept;
}

interface Leg {
  readonly store: string;
  readonly small: Stats;
  readonly big: Stats;
  readonly bigBytes: number;
}

async function leg(
  store: string,
  env: Record<string, string>,
  dataDir: string,
): Promise<Leg & { files: string[] }> {
  const relay = await startRelayProcess({
    ...env,
    RELAY_OWNER_TOKEN: OWNER_TOKEN,
    RELAY_DATA_DIR: dataDir,
    RELAY_ALLOWED_ROOTS: dataDir,
    RELAY_NAME: "bench",
  });
  try {
    const owner = ownerClient(relay.base, OWNER_TOKEN);
    const prompt = [
      "!task small :: seq 1 200",
      `!task big :: seq -f '${LINE_FORMAT}' 1 100000000 | head -c ${BIG_BYTES}`,
      "!wait-task small",
      "!wait-task big",
    ].join("\n");
    const created = await owner.post("/v1/owner/sessions", {
      provider: "script",
      cwd: dataDir,
      text: prompt,
    });
    const sessionId = created.id as string;
    const since = performance.now();
    let tasks: { taskId: string; description: string; status: string }[] = [];
    for (;;) {
      const detail = await owner.get(`/v1/owner/sessions/${sessionId}`);
      tasks = detail.tasks as typeof tasks;
      if (tasks.length === 2 && tasks.every((task) => task.status !== "running")) {
        break;
      }
      if (performance.now() - since > 600_000) {
        throw new Error("the tasks did not end within 10 min");
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.error(
      `· ${store}: 1 GB written through the relay in ${((performance.now() - since) / 1000).toFixed(1)} s`,
    );
    const { token } = (await owner.post(`/v1/owner/sessions/${sessionId}/token`, {})) as { token: string };
    const read = async (taskId: string) => {
      const response = await fetch(`${relay.base}/v1/tool`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          action: "read_task_output",
          relay: "this",
          session: sessionId,
          task_id: taskId,
          lines: 50,
        }),
      });
      const result = JSON.parse(await response.text()) as { ok: boolean; tail?: string[]; error?: string };
      if (!result.ok || result.tail?.length !== 50) {
        throw new Error(`read_task_output failed: ${JSON.stringify(result).slice(0, 300)}`);
      }
    };
    const id = (name: string) => {
      const found = tasks.find((task) => task.description.startsWith(name === "small" ? "seq 1" : "seq -f"));
      if (!found) {
        throw new Error(`no ${name} task`);
      }
      return found.taskId;
    };
    // Warm both paths once, then alternate so that neither gets a warmer process.
    await read(id("small"));
    await read(id("big"));
    const small = await timed(CALLS, () => read(id("small")));
    const big = await timed(CALLS, () => read(id("big")));
    const files = [join(dataDir, "tasks", `${id("small")}.log`), join(dataDir, "tasks", `${id("big")}.log`)];
    return { store, small, big, bigBytes: BIG_BYTES, files };
  } finally {
    await relay.stop();
  }
}

async function main(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), "oar-bench-tasks-"));
  let database: ScratchDatabase | undefined;
  try {
    const pglite = await leg("PGlite", {}, join(folder, "pglite"));
    database = await createScratchDatabase(ADMIN_URL);
    const postgres = await leg("Postgres", { DATABASE_URL: database.url }, join(folder, "postgres"));
    const [smallFile = "", bigFile = ""] = pglite.files;
    const tailSmall = await timed(CALLS, () => run("tail", ["-n", "50", smallFile]));
    const tailBig = await timed(CALLS, () => run("tail", ["-n", "50", bigFile]));
    const whole = await timed(3, () => wholeFileTail(bigFile, 50));

    console.log(`read_task_output, 50 lines, ${CALLS} calls each (p50 / p99)`);
    console.log("| reader | tail of 1 KB | tail of 1 GB | 1 GB / 1 KB (p50) |");
    console.log("| --- | ---: | ---: | ---: |");
    for (const figures of [pglite, postgres]) {
      console.log(
        `| relay on ${figures.store} | ${ms(figures.small.p50)} / ${ms(figures.small.p99)} | ${ms(figures.big.p50)} / ${ms(figures.big.p99)} | ${(figures.big.p50 / figures.small.p50).toFixed(2)}× |`,
      );
    }
    console.log(
      `| GNU tail -n 50 (a process each) | ${ms(tailSmall.p50)} / ${ms(tailSmall.p99)} | ${ms(tailBig.p50)} / ${ms(tailBig.p99)} | ${(tailBig.p50 / tailSmall.p50).toFixed(2)}× |`,
    );
    console.log(`| reading the whole file (3 runs) | – | ${ms(whole.p50)} / ${ms(whole.p99)} | – |`);
    for (const figures of [pglite, postgres]) {
      const ratio = figures.big.p50 / figures.small.p50;
      console.log(
        `goal on ${figures.store}: tail of 1 GB ≤ ${GOAL_RATIO}× the tail of 1 KB: ${ratio.toFixed(2)}× ${ratio <= GOAL_RATIO ? "met" : "NOT met"}; the relay's 1 GB read is ${(whole.p50 / figures.big.p50).toFixed(0)}× faster than reading the whole file`,
      );
    }
  } finally {
    await database?.drop();
    await rm(folder, { recursive: true, force: true });
  }
}

await main();
