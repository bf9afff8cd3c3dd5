// bench/providers: what the relay adds to a turn of an ACP agent (the Copilot CLI 1.0.102, offline
// in BYOK mode against a fake Messages API that answers at once) — `send` + `wait` over /v1/tool
// of a `copilot` session against `session/prompt` sent to the same CLI directly over ACP, same
// binary, same environment, same fake model, in one run; on PGlite, then on a scratch Postgres
// database. And the relay's warm agent process (one per session, kept between turns) against a
// process per turn (spawn + initialize + session/load + session/prompt, then kill), measured directly.
// Goal (issue 30): ≤ 50 ms added at p50.

import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeAnthropic, UNSCRIPTED_REPLY } from "@oar/providers/testing";
import { startChildRelay } from "../lib/child-relay";
import { ownerClient } from "../lib/owner-api";
import { createScratchDatabase } from "../lib/scratch-database";
import { BYOK_MODEL, copilotBinary, createAgentHome, killLivingAgents, startDirectAgent } from "./agent";
import type { RelaySettings } from "./relay";
import {
  median,
  type RoundFigures,
  roundFigures,
  spreadOf,
  type TurnTiming,
  timePlainTurn,
  timeTurn,
} from "./turns";

const TURNS = Number(process.argv[2] ?? 30);
const ADMIN_URL = process.argv[3] ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROUNDS = 3;
/** Turns per warm target before the rounds (JIT, the CLI's first MCP connection, query plans). */
const WARM_UP = 5;
/** Process-per-turn turns per round: a few seconds each, N over the run's two legs. */
const COLD_PER_ROUND = Math.max(1, Math.round(TURNS / (2 * ROUNDS)));
const GOAL_ADDED_P50_MS = 50;
const OWNER_TOKEN = "bench-owner-token-0000";

if (!Number.isInteger(TURNS) || TURNS < 1) {
  throw new Error(`usage: pnpm bench:providers [turns per target per round] [postgres admin URL]`);
}

const fake = await startFakeAnthropic();
const home = createAgentHome(fake.url);
// The agents run in process groups of their own, out of reach of the terminal's Ctrl-C (the
// relay's child ends its own agents when it gets it).
process.once("SIGINT", () => {
  killLivingAgents();
  home.remove();
  process.exit(130);
});
const bin = copilotBinary();
const loadBefore = loadavg()[0] ?? 0;

const expectReply = (reply: string, where: string) => {
  if (reply !== UNSCRIPTED_REPLY) {
    throw new Error(`${where}: the reply was ${JSON.stringify(reply.slice(0, 300))}`);
  }
};

// The direct client's agent: one process for the whole run, a new session for each leg.
const startedAt = performance.now();
const direct = await startDirectAgent(bin, home);
const firstStartMs = performance.now() - startedAt;

interface ColdTurn {
  readonly totalMs: number;
  readonly startMs: number;
  readonly loadMs: number;
  readonly promptMs: number;
}

// The conversation the process-per-turn turns continue: made, then left, by a process of its own.
const coldSession = await (async () => {
  const maker = await startDirectAgent(bin, home);
  try {
    const id = await maker.newSession(home.cwd);
    expectReply(await maker.prompt(id, "The conversation a process per turn continues."), "cold session");
    return id;
  } finally {
    await maker.kill();
  }
})();

/** A turn in a process of its own: spawn, initialize, session/load, session/prompt; the kill is not timed. */
async function coldTurn(n: number): Promise<ColdTurn> {
  const t0 = performance.now();
  const agent = await startDirectAgent(bin, home);
  try {
    const t1 = performance.now();
    await agent.loadSession(coldSession, home.cwd);
    const t2 = performance.now();
    expectReply(await agent.prompt(coldSession, `Process per turn, turn ${n}.`), "process per turn");
    const t3 = performance.now();
    return { totalMs: t3 - t0, startMs: t1 - t0, loadMs: t2 - t1, promptMs: t3 - t2 };
  } finally {
    await agent.kill();
  }
}

interface LegResult {
  readonly store: string;
  readonly relayStartMs: number;
  readonly firstTurnMs: number;
  readonly direct: RoundFigures[];
  /** Direct, in a session with the relay as its MCP server: relay_tool offered to the model. */
  readonly directMcp: RoundFigures[];
  readonly relay: RoundFigures[];
  /** The relay's turn with the `script` provider: no agent, no model. */
  readonly script: RoundFigures[];
  /** Statements the relay sent its database per turn, each round (its background work meanwhile too). */
  readonly statements: { readonly relay: number[]; readonly script: number[] };
  readonly cold: ColdTurn[];
  /** The resident set of the direct client's warm agent process group after the rounds. */
  readonly agentMb: number;
}

async function leg(store: string, databaseUrl: string | undefined): Promise<LegResult> {
  const settings: RelaySettings = {
    ownerToken: OWNER_TOKEN,
    copilotBin: bin,
    cwd: home.cwd,
    childEnv: home.env,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  };
  const t0 = performance.now();
  // With the V8 options `pnpm relay` starts the relay with.
  const server = await startChildRelay(
    join(import.meta.dirname, "relay.ts"),
    [JSON.stringify(settings)],
    join(import.meta.dirname, ".."),
    ["--max-semi-space-size=64"],
  );
  const relayStartMs = performance.now() - t0;
  try {
    const owner = ownerClient(server.base, OWNER_TOKEN);
    const caller = await owner.post("/v1/owner/sessions", { provider: "script", title: "bench caller" });
    const { token } = (await owner.post(`/v1/owner/sessions/${caller.id}/token`, {})) as { token: string };
    // The path a user's agent takes: relay_tool's calls over /v1/tool, the turn waited for.
    const tool = async (call: Record<string, unknown>, reply = UNSCRIPTED_REPLY) => {
      const response = await fetch(`${server.base}/v1/tool`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ relay: "this", ...call, wait_seconds: 120 }),
      });
      const text = await response.text();
      const body = JSON.parse(text) as { status?: string; session?: string; reply?: { text?: string } };
      if (body.status !== "done") {
        throw new Error(`${call.action}: ${response.status} ${text.slice(0, 500)}`);
      }
      if (body.reply?.text !== reply) {
        throw new Error(`relay ${call.action}: the reply was ${JSON.stringify(body.reply).slice(0, 300)}`);
      }
      return body;
    };
    // The session's first turn starts its agent process and opens the ACP session (session/new).
    const t1 = performance.now();
    const created = await tool({
      action: "create_session",
      provider: "copilot",
      model: BYOK_MODEL,
      cwd: home.cwd,
      title: "bench copilot",
      text: "The relay's conversation.",
    });
    const firstTurnMs = performance.now() - t1;
    const session = created.session as string;
    // The relay's own share of a turn, without any agent: the built-in `script` provider's `!reply`.
    const scripted = await tool(
      {
        action: "create_session",
        provider: "script",
        cwd: home.cwd,
        title: "bench script",
        text: "!reply ok",
      },
      "ok",
    );
    const scriptSession = scripted.session as string;
    const directSession = await direct.newSession(home.cwd);
    expectReply(await direct.prompt(directSession, "The direct conversation."), "direct");
    // The same, with the relay as the session's MCP server as the provider gives it (relay_tool in
    // every model request), under an agent token of the script session: what relay_tool costs.
    const { token: mcpToken } = (await owner.post(`/v1/owner/sessions/${scriptSession}/token`, {})) as {
      token: string;
    };
    const directMcpSession = await direct.newSession(home.cwd, [
      {
        type: "http",
        name: "relay",
        url: `${server.base}/mcp`,
        headers: [{ name: "Authorization", value: `Bearer ${mcpToken}` }],
      },
    ]);
    expectReply(await direct.prompt(directMcpSession, "The direct conversation with relay_tool."), "direct");

    let n = 0;
    const directTurn = () =>
      timeTurn(fake, async () => {
        expectReply(await direct.prompt(directSession, `Turn ${++n}.`), "direct");
      });
    const directMcpTurn = () =>
      timeTurn(fake, async () => {
        expectReply(await direct.prompt(directMcpSession, `Turn ${++n}.`), "direct with relay_tool");
      });
    const relayTurn = () =>
      timeTurn(fake, async () => {
        await tool({ action: "send", session, text: `Turn ${++n}.` });
      });
    const scriptTurn = () =>
      timePlainTurn(async () => {
        await tool({ action: "send", session: scriptSession, text: "!reply ok" }, "ok");
      });
    const turns = async (one: () => Promise<TurnTiming>, count: number) => {
      const timings: TurnTiming[] = [];
      for (let i = 0; i < count; i++) {
        timings.push(await one());
      }
      return timings;
    };

    await turns(directTurn, WARM_UP);
    await turns(directMcpTurn, WARM_UP);
    await turns(relayTurn, WARM_UP);
    await turns(scriptTurn, WARM_UP);
    const statements = async () =>
      ((await (await fetch(`${server.base}/bench/statements`)).json()) as { statements: number }).statements;
    const rounds = {
      direct: [] as RoundFigures[],
      directMcp: [] as RoundFigures[],
      relay: [] as RoundFigures[],
      script: [] as RoundFigures[],
    };
    const counted = { relay: [] as number[], script: [] as number[] };
    const cold: ColdTurn[] = [];
    const run = { direct: directTurn, directMcp: directMcpTurn, relay: relayTurn, script: scriptTurn };
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in the other order, so a drift of the machine weighs on both alike.
      const targets = ["direct", "directMcp", "relay", "script"] as const;
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const before = await statements();
        const timings = await turns(run[target], TURNS);
        const sent = (await statements()) - before;
        rounds[target].push(roundFigures(timings));
        if (target === "relay" || target === "script") {
          counted[target].push(sent / TURNS);
        }
      }
      for (let i = 0; i < COLD_PER_ROUND; i++) {
        cold.push(await coldTurn(++n));
      }
    }
    return {
      store,
      relayStartMs,
      firstTurnMs,
      ...rounds,
      statements: counted,
      cold,
      agentMb: direct.residentMb(),
    };
  } finally {
    await server.stop();
  }
}

const ms = (value: number) =>
  Number.isNaN(value) ? "–" : value >= 100 ? value.toFixed(0) : value.toFixed(1);
const medianOf = (rounds: readonly RoundFigures[], pick: (round: RoundFigures) => number) =>
  median(rounds.map(pick));

function printLeg(result: LegResult): { addedP50: number; addedP90: number; relayP50: number } {
  console.log(
    `\nbench/providers on ${result.store} — ${TURNS} turns × ${ROUNDS} rounds per target after ${WARM_UP} warm-up turns; the median of the rounds' figures (each round's p50 in brackets)`,
  );
  console.log("| target | p50 ms | p90 ms | to the model, p50 | after it, p50 | rounds' p50 |");
  console.log("| --- | ---: | ---: | ---: | ---: | --- |");
  const row = (label: string, rounds: readonly RoundFigures[]) =>
    console.log(
      `| ${label} | ${ms(medianOf(rounds, (r) => r.total.p50))} | ${ms(medianOf(rounds, (r) => r.total.p90))} | ${ms(medianOf(rounds, (r) => r.toModelP50))} | ${ms(medianOf(rounds, (r) => r.afterModelP50))} | ${rounds.map((r) => ms(r.total.p50)).join(", ")} |`,
    );
  row("direct ACP: session/prompt", result.direct);
  row("direct ACP, the relay as its MCP server (relay_tool)", result.directMcp);
  row("relay: /v1/tool send + wait", result.relay);
  row("relay, `script` provider (no agent): send + wait", result.script);
  const relayP50 = medianOf(result.relay, (r) => r.total.p50);
  const addedP50 = relayP50 - medianOf(result.direct, (r) => r.total.p50);
  const addedP90 = medianOf(result.relay, (r) => r.total.p90) - medianOf(result.direct, (r) => r.total.p90);
  const addedTo = medianOf(result.relay, (r) => r.toModelP50) - medianOf(result.direct, (r) => r.toModelP50);
  const addedAfter =
    medianOf(result.relay, (r) => r.afterModelP50) - medianOf(result.direct, (r) => r.afterModelP50);
  console.log(
    `\nadded by the relay: p50 +${ms(addedP50)} ms (goal ≤ ${GOAL_ADDED_P50_MS} ms) ${addedP50 <= GOAL_ADDED_P50_MS ? "met" : "NOT met"}, p90 +${ms(addedP90)} ms; on the way to the model +${ms(addedTo)} ms, on the way back +${ms(addedAfter)} ms (p50s)`,
  );
  const scriptP50 = medianOf(result.script, (r) => r.total.p50);
  const toolP50 =
    medianOf(result.directMcp, (r) => r.total.p50) - medianOf(result.direct, (r) => r.total.p50);
  console.log(
    `of which: the relay's own turn (\`script\`, no agent) ${ms(scriptP50)} ms; relay_tool in the model's requests +${ms(toolP50)} ms (direct with the relay as MCP server − direct); the rest (the ACP provider, its usage record, the machine) ${ms(addedP50 - scriptP50 - toolP50)} ms`,
  );
  console.log(
    `statements per turn (the relay's background work meanwhile included): copilot ${median(result.statements.relay).toFixed(1)}, script ${median(result.statements.script).toFixed(1)}`,
  );
  console.log(
    `relay started in ${ms(result.relayStartMs)} ms; the session's first turn (the agent's start, initialize, session/new, the prompt) took ${ms(result.firstTurnMs)} ms`,
  );
  return { addedP50, addedP90, relayP50 };
}

console.log(
  `Copilot CLI ${bin}; its first start in a new HOME (initialize answered) took ${ms(firstStartMs)} ms`,
);
const results: LegResult[] = [];
try {
  results.push(await leg("PGlite", undefined));
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  try {
    database = await createScratchDatabase(ADMIN_URL);
  } catch (error) {
    console.log(`\nno Postgres leg: ${(error as Error).message}`);
  }
  if (database !== undefined) {
    try {
      results.push(await leg("Postgres", database.url));
    } finally {
      await database.drop();
    }
  }
} finally {
  await direct.kill();
  await fake.close();
  home.remove();
}

const warm = results.map(printLeg);
const cold = results.flatMap((result) => result.cold);
const coldTotal = spreadOf(cold.map((turn) => turn.totalMs));
const directP50 = median(results.flatMap((result) => result.direct.map((round) => round.total.p50)));
console.log(
  `\nprocess per turn, measured directly — ${cold.length} turns (${COLD_PER_ROUND} in each round of each leg), each spawn + initialize + session/load of the same conversation + session/prompt, the kill after it not counted`,
);
console.log("| target | p50 ms | p90 ms | start + initialize, p50 | session/load, p50 | prompt, p50 |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
console.log(
  `| process per turn | ${ms(coldTotal.p50)} | ${ms(coldTotal.p90)} | ${ms(spreadOf(cold.map((t) => t.startMs)).p50)} | ${ms(spreadOf(cold.map((t) => t.loadMs)).p50)} | ${ms(spreadOf(cold.map((t) => t.promptMs)).p50)} |`,
);
for (const [index, result] of results.entries()) {
  const relayP50 = warm[index]?.relayP50 ?? Number.NaN;
  console.log(
    `warm process through the relay on ${result.store}: p50 ${ms(relayP50)} ms — a process per turn takes ${(coldTotal.p50 / relayP50).toFixed(0)}× as long`,
  );
}
console.log(
  `warm process driven directly: p50 ${ms(directP50)} ms — a process per turn takes ${(coldTotal.p50 / directP50).toFixed(0)}× as long`,
);
console.log(
  `a warm agent process group (npm's loader and the native CLI) held ${results.map((r) => `${r.agentMb.toFixed(0)} MB after the ${r.store} leg`).join(", ")}`,
);
console.log(`\nload average ${loadBefore.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`);
