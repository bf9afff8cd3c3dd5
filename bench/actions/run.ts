// bench/actions: list_sessions (100 sessions) and read_session over /v1/tool against a bare Hono
// route running the same store query on the same database, and MCP tools/call against /v1/tool.
// Requests/s and p99, as ratios measured in one run. Goals: /v1/tool ≥ 0.8× bare, MCP ≥ 0.6× /v1/tool.
import { join } from "node:path";
import { startChildRelay } from "../lib/child-relay";
import { bestOf, type LoadResult, type LoadTarget, runLoad } from "../lib/load";
import { printRatios, printTable } from "../lib/report";

const REQUESTS = Number(process.argv[2] ?? 3000);
const ROUNDS = 3;
const CONCURRENCY = 8;

const server = await startChildRelay(
  join(import.meta.dirname, "server.ts"),
  [],
  join(import.meta.dirname, ".."),
);
const ready = server.ready as unknown as { port: number; token: string; caller: string; target: string };
const base = server.base;
const agent = { authorization: `Bearer ${ready.token}`, "content-type": "application/json" };

async function expectOk(response: Response, name: string): Promise<void> {
  const text = await response.text();
  if (!response.ok || !text.includes('"ok":true')) {
    throw new Error(`${name}: ${response.status} ${text.slice(0, 300)}`);
  }
}

const tool = (name: string, call: object): LoadTarget => ({
  name,
  request: async () =>
    expectOk(
      await fetch(`${base}/v1/tool`, { method: "POST", headers: agent, body: JSON.stringify(call) }),
      name,
    ),
});
const bare = (name: string, path: string): LoadTarget => ({
  name,
  request: async () => expectOk(await fetch(`${base}/bare${path}`), name),
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

const listCall = { action: "list_sessions", relay: "this", scope: "active" };
const readCall = { action: "read_session", relay: "this", session: ready.target, last: 20 };
const targets = [
  bare("bare list", "/list-sessions"),
  tool("/v1/tool list_sessions", listCall),
  mcp("MCP list_sessions", listCall),
  bare("bare read", `/read-session/${ready.target}`),
  tool("/v1/tool read_session", readCall),
];

// Warm up every path (JIT, query plans), then alternate targets round by round.
for (const target of targets) {
  await runLoad(target, { requests: 200, concurrency: CONCURRENCY });
}
const rounds = new Map<string, LoadResult[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const target of targets) {
    const result = await runLoad(target, { requests: REQUESTS, concurrency: CONCURRENCY });
    rounds.set(target.name, [...(rounds.get(target.name) ?? []), result]);
  }
}
const best = new Map([...rounds].map(([name, results]) => [name, bestOf(results)]));
printTable(
  `bench/actions — ${REQUESTS} requests × ${ROUNDS} rounds, ${CONCURRENCY} in flight, best round kept`,
  best,
);
printRatios(best, [
  ["/v1/tool list_sessions", "bare list", 0.8],
  ["/v1/tool read_session", "bare read", 0.8],
  ["MCP list_sessions", "/v1/tool list_sessions", 0.6],
]);

await server.stop();
