// bench/actions: list_sessions (100 sessions), read_session and send + wait of a `script` turn over
// /v1/tool against bare Hono routes running the same store queries (and writes) on the same
// database, MCP tools/call against /v1/tool, and the bare list against one hand-written SQL query
// of the same rows. Requests/s and p99 as ratios measured in one run, and the statements each call
// sends the database (the storage's statement hook: postgres.js `debug`, PGlite's query/exec/
// transaction), on PGlite and on a scratch Postgres database.
// Goals: /v1/tool ≥ 0.8× bare, MCP ≥ 0.6× /v1/tool; statements per read ≤ the bare route's + 1.

import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startChildRelay } from "../lib/child-relay";
import { bestOf, type LoadResult, type LoadTarget, runLoad } from "../lib/load";
import { printRatios, printTable } from "../lib/report";
import { createScratchDatabase } from "../lib/scratch-database";

const REQUESTS = Number(process.argv[2] ?? 3000);
const ADMIN_URL = process.argv[3] ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROUNDS = 3;
const CONCURRENCY = 8;
/** A turn makes tens of statements where a read makes one: fewer of them give the same spread. */
const SENDS = Math.max(100, Math.round(REQUESTS / 5));
/** Calls per statement count, sequential; the log's window (250 ms) is let close after them. */
const COUNTED_CALLS = 40;
const LOG_WINDOW_MS = 300;

async function expectOk(response: Response, name: string): Promise<void> {
  const text = await response.text();
  if (!response.ok || !text.includes('"ok":true')) {
    throw new Error(`${name}: ${response.status} ${text.slice(0, 300)}`);
  }
}

/** A free index among `size`, held while one request uses it: each send target runs one turn at a time. */
function pool(size: number) {
  const free = Array.from({ length: size }, (_, n) => n);
  return async <T>(work: (index: number) => Promise<T>): Promise<T> => {
    const index = free.pop();
    if (index === undefined) {
      throw new Error("more requests in flight than send targets");
    }
    try {
      return await work(index);
    } finally {
      free.push(index);
    }
  };
}

async function leg(store: string, serverArgs: readonly string[]) {
  const server = await startChildRelay(
    join(import.meta.dirname, "server.ts"),
    serverArgs,
    join(import.meta.dirname, ".."),
  );
  const ready = server.ready as unknown as { token: string; target: string; sends: string[] };
  const base = server.base;
  const agent = { authorization: `Bearer ${ready.token}`, "content-type": "application/json" };
  const toolPost = (body: object) =>
    fetch(`${base}/v1/tool`, { method: "POST", headers: agent, body: JSON.stringify(body) });
  const tool = (name: string, call: object): LoadTarget => ({
    name,
    request: async () => expectOk(await toolPost(call), name),
  });
  const bare = (name: string, path: string, method = "GET"): LoadTarget => ({
    name,
    request: async () => expectOk(await fetch(`${base}/bare${path}`, { method }), name),
  });
  let rpcId = 0;
  const mcp = (name: string, call: object): LoadTarget => ({
    name,
    request: async () =>
      expectOk(
        await fetch(`${base}/mcp`, {
          method: "POST",
          headers: { ...agent, accept: "application/json, text/event-stream" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: ++rpcId,
            method: "tools/call",
            params: { name: "relay_tool", arguments: call },
          }),
        }),
        name,
      ),
  });
  const toolSend = pool(ready.sends.length);
  const bareSend = pool(ready.sends.length);
  const listCall = { action: "list_sessions", relay: "this", scope: "active" };
  const readCall = { action: "read_session", relay: "this", session: ready.target, last: 20 };
  const reads = [
    bare("bare list", "/list-sessions"),
    bare("SQL list", "/sql-list-sessions"),
    tool("/v1/tool list_sessions", listCall),
    mcp("MCP list_sessions", listCall),
    bare("bare read", `/read-session/${ready.target}`),
    tool("/v1/tool read_session", readCall),
  ];
  const sends: LoadTarget[] = [
    {
      name: "bare send",
      request: () =>
        bareSend(async (n) =>
          expectOk(await fetch(`${base}/bare/send/${n}`, { method: "POST" }), "bare send"),
        ),
    },
    {
      name: "/v1/tool send + wait",
      request: () =>
        toolSend(async (n) => {
          const call = {
            action: "send",
            relay: "this",
            session: ready.sends[n],
            text: "!reply ok",
            wait_seconds: 30,
          };
          const text = await (await toolPost(call)).text();
          if (!text.includes('"status":"done"')) {
            throw new Error(`/v1/tool send + wait: ${text.slice(0, 300)}`);
          }
        }),
    },
  ];

  const counted = async (target: LoadTarget) => {
    const before = ((await (await fetch(`${base}/bare/statements`)).json()) as { statements: number })
      .statements;
    for (let n = 0; n < COUNTED_CALLS; n++) {
      await target.request();
    }
    await sleep(LOG_WINDOW_MS);
    const after = ((await (await fetch(`${base}/bare/statements`)).json()) as { statements: number })
      .statements;
    return (after - before) / COUNTED_CALLS;
  };

  // Warm up every path (JIT, query plans), then alternate targets round by round.
  for (const target of [...reads, ...sends]) {
    await runLoad(target, { requests: 200, concurrency: CONCURRENCY });
  }
  const perCall = new Map<string, number>();
  for (const target of [...reads, ...sends]) {
    perCall.set(target.name, await counted(target));
  }
  const rounds = new Map<string, LoadResult[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [targets, requests] of [
      [reads, REQUESTS],
      [sends, SENDS],
    ] as const) {
      for (const target of targets) {
        const result = await runLoad(target, { requests, concurrency: CONCURRENCY });
        rounds.set(target.name, [...(rounds.get(target.name) ?? []), result]);
      }
    }
  }
  await server.stop();
  const best = new Map([...rounds].map(([name, results]) => [name, bestOf(results)]));
  printTable(
    `bench/actions on ${store} — ${REQUESTS} requests (sends: ${SENDS}) × ${ROUNDS} rounds, ${CONCURRENCY} in flight, best round kept`,
    best,
  );
  printRatios(best, [
    ["/v1/tool list_sessions", "bare list", 0.8],
    ["/v1/tool read_session", "bare read", 0.8],
    ["MCP list_sessions", "/v1/tool list_sessions", 0.6],
    ["/v1/tool send + wait", "bare send", 0.8],
  ]);
  const sqlList = best.get("SQL list");
  const bareList = best.get("bare list");
  if (sqlList && bareList) {
    console.log(
      `bare list vs one hand-written SQL query of the same rows: ${(bareList.perSecond / sqlList.perSecond).toFixed(2)}× req/s`,
    );
  }
  console.log(
    "\nstatements per call (BEGIN/COMMIT included; the tool-call log's insert amortized over its window):",
  );
  for (const [name, count] of perCall) {
    console.log(`| ${name} | ${count.toFixed(2)} |`);
  }
}

await leg("PGlite", []);
const database = await createScratchDatabase(ADMIN_URL);
try {
  await leg("Postgres", [database.url]);
} finally {
  await database.drop();
}
