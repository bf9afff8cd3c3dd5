// bench/federation: read_session of a session on build-box, three ways in one run — build-box's
// own agent over /v1/tool, the peer surface of build-box called directly (POST /v1/peer/tool),
// and desk's agent naming build-box, so desk applies its rules and forwards the call. Requests/s
// and p99 as ratios. Goals: forwarded ≥ 0.4× the direct call (it is two relays' work and one
// more HTTP exchange, on the same two cores), and ≥ 0.5× the peer surface called directly.
import { join } from "node:path";
import { startChildRelay } from "../lib/child-relay";
import { bestOf, type LoadResult, type LoadTarget, runLoad } from "../lib/load";
import { printRatios, printTable } from "../lib/report";

const REQUESTS = Number(process.argv[2] ?? 2000);
const ROUNDS = 3;
const CONCURRENCY = 8;
const cwd = join(import.meta.dirname, "..");
const script = join(import.meta.dirname, "relay.ts");

const [desk, box] = await Promise.all([
  startChildRelay(script, ["desk"], cwd),
  startChildRelay(script, ["build-box"], cwd),
]);

async function post(
  base: string,
  token: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${path}: ${response.status} ${text}`);
  }
  return JSON.parse(text) as Record<string, unknown>;
}
const deskOwner = String(desk.ready.ownerToken);
const boxOwner = String(box.ready.ownerToken);

// Pairing, then a target with a real conversation in it on build-box.
const invite = String((await post(box.base, boxOwner, "/v1/owner/peers/invites", {})).token);
await post(desk.base, deskOwner, "/v1/owner/peers", {
  name: "build-box",
  url: box.base,
  token: invite,
  level: "full",
});
const target = String((await post(box.base, boxOwner, "/v1/owner/sessions", { title: "bench target" })).id);
for (let i = 0; i < 10; i++) {
  await post(box.base, boxOwner, `/v1/owner/sessions/${target}/messages`, { text: `!reply answer ${i}` });
}
const boxCaller = String(
  (await post(box.base, boxOwner, "/v1/owner/sessions", { title: "local caller" })).id,
);
const boxToken = String((await post(box.base, boxOwner, `/v1/owner/sessions/${boxCaller}/token`, {})).token);
// The owner names build-box in desk's conversation, which unlocks it there (R-LOCK-01).
const deskCaller = String(
  (await post(desk.base, deskOwner, "/v1/owner/sessions", { title: "remote caller", text: "read build-box" }))
    .id,
);
const deskToken = String(
  (await post(desk.base, deskOwner, `/v1/owner/sessions/${deskCaller}/token`, {})).token,
);

const read = { action: "read_session", session: target, last: 20 };
const call = (name: string, base: string, path: string, token: string, body: object): LoadTarget => ({
  name,
  request: async () => {
    const response = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok || !text.includes('"ok":true')) {
      throw new Error(`${name}: ${response.status} ${text.slice(0, 300)}`);
    }
  },
});
const origin = {
  relay: "desk",
  session: deskCaller,
  title: "remote caller",
  model: "script-1",
  hops: 1,
  userUnlocked: true,
};
const targets = [
  call("build-box /v1/tool", box.base, "/v1/tool", boxToken, { ...read, relay: "this" }),
  call("build-box /v1/peer/tool", box.base, "/v1/peer/tool", invite, {
    call: { ...read, relay: "this" },
    origin,
  }),
  call("desk → build-box", desk.base, "/v1/tool", deskToken, { ...read, relay: "build-box" }),
];

for (const t of targets) {
  await runLoad(t, { requests: 200, concurrency: CONCURRENCY });
}
const rounds = new Map<string, LoadResult[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const t of targets) {
    rounds.set(t.name, [
      ...(rounds.get(t.name) ?? []),
      await runLoad(t, { requests: REQUESTS, concurrency: CONCURRENCY }),
    ]);
  }
}
const best = new Map([...rounds].map(([name, results]) => [name, bestOf(results)]));
printTable(
  `bench/federation — read_session, ${REQUESTS} requests × ${ROUNDS} rounds, ${CONCURRENCY} in flight, best round kept`,
  best,
);
printRatios(best, [
  ["desk → build-box", "build-box /v1/tool", 0.4],
  ["desk → build-box", "build-box /v1/peer/tool", 0.5],
]);

await Promise.all([desk.stop(), box.stop()]);
