// bench/console: how soon an approval card raised by an agent's call is on the owner's screen —
// the console (the owner event stream) against a page that polls GET /v1/owner/cards, as a
// dashboard without the stream does — with the relay on PGlite and on Postgres, in one run, in
// Debian's Chromium. Goals: the console's p99 under 1 s on both; ≥ 5× sooner than polling every 2 s.
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "@oar/core/testing";
import { chromium, type Page } from "playwright-core";
import { ownerClient } from "../lib/owner-api";
import { startRelayProcess } from "../lib/relay-process";
import { createScratchDatabase, type ScratchDatabase } from "../lib/scratch-database";
import { summarize } from "../schedules/figures";

const COUNT = Number(process.argv[2] ?? 40);
const ADMIN_URL = process.argv[3] ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CHROMIUM = "/usr/bin/chromium";
const OWNER_TOKEN = "bench-console-owner-token";
const POLL_MS = [2000, 1000];
const GOAL_P99_MS = 1000;
const GOAL_RATIO = 5;

/** Records in the page when each card id first shows: the console's DOM, or a poller's fetch. */
type Seen = Record<string, number>;

// Page scripts are strings: what tsx compiles adds helpers (esbuild's __name) the page lacks.
const WATCH_CONSOLE = `
  window.seen = {};
  new MutationObserver(() => {
    for (const card of document.querySelectorAll("[data-card]")) {
      window.seen[card.getAttribute("data-card")] ??= Date.now();
    }
  }).observe(document, { subtree: true, childList: true });
`;

/** Polls GET /v1/owner/cards every `everyMs` from a random phase, as a dashboard opened at any moment does. */
async function pollerPage(page: Page, token: string, everyMs: number): Promise<void> {
  await page.evaluate(`
    window.seen = {};
    const poll = async () => {
      const response = await fetch("/v1/owner/cards?status=pending", {
        headers: { Authorization: ${JSON.stringify(`Bearer ${token}`)} },
      });
      for (const card of (await response.json()).cards) {
        window.seen[card.id] ??= Date.now();
      }
      setTimeout(poll, ${everyMs});
    };
    setTimeout(poll, Math.random() * ${everyMs});
  `);
}

const seenIn = (page: Page) => page.evaluate("window.seen") as Promise<Seen>;

interface Leg {
  readonly name: string;
  /** Per watcher: ms from a card's creation (the relay's clock, this machine) to the page seeing it. */
  readonly delays: Map<string, number[]>;
}

async function leg(name: string, env: Record<string, string>): Promise<Leg> {
  const relay = await startRelayProcess({ ...env, RELAY_OWNER_TOKEN: OWNER_TOKEN, RELAY_NAME: "bench" });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const owner = ownerClient(relay.base, OWNER_TOKEN);
    const context = await browser.newContext({ baseURL: relay.base });
    await context.addInitScript(`localStorage.setItem("oar.ownerToken", ${JSON.stringify(OWNER_TOKEN)})`);
    const consolePage = await context.newPage();
    await consolePage.addInitScript(WATCH_CONSOLE);
    await consolePage.goto("/#/inbox");
    await consolePage.locator("#link-state[data-state=live]").waitFor();
    const pollers = new Map<string, Page>();
    for (const everyMs of POLL_MS) {
      const page = await context.newPage();
      await page.goto("/healthz");
      await pollerPage(page, OWNER_TOKEN, everyMs);
      pollers.set(`page polling /v1/owner/cards every ${everyMs / 1000} s`, page);
    }
    const created = new Map<string, number>();
    const random = seededRandom(12);
    for (let i = 0; i < COUNT; i++) {
      const session = await owner.post("/v1/owner/sessions", { provider: "external", title: `Agent ${i}` });
      const { token } = (await owner.post(`/v1/owner/sessions/${session.id}/token`, {})) as { token: string };
      // The agent's first session waits on a card (R-UI-01 (a)); Deny ends the call below.
      const call = fetch(`${relay.base}/v1/tool`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ action: "create_session", relay: "this", title: "x", text: "x" }),
      }).then((response) => response.text());
      let card: { id: string; createdAt: number } | undefined;
      while (card === undefined) {
        const { cards } = (await owner.get("/v1/owner/cards?status=pending")) as {
          cards: { id: string; sessionId: string; createdAt: number }[];
        };
        card = cards.find((c) => c.sessionId === session.id);
      }
      created.set(card.id, card.createdAt);
      // Every watcher has seen it (the slowest polls every 2 s) before the owner answers.
      const deadline = Date.now() + 5_000;
      for (const page of [consolePage, ...pollers.values()]) {
        while ((await seenIn(page))[card.id] === undefined && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      await owner.post(`/v1/owner/cards/${card.id}`, { choice: "deny" });
      await call;
      // The next card comes at a random moment of the pollers' cycle, as an agent's call does.
      await new Promise((resolve) => setTimeout(resolve, random.next() * Math.max(...POLL_MS)));
    }
    const delays = new Map<string, number[]>();
    for (const [watcher, page] of [["the console (owner event stream)", consolePage] as const, ...pollers]) {
      const seen = await seenIn(page);
      delays.set(
        watcher,
        [...created].map(([id, at]) => (seen[id] === undefined ? Number.POSITIVE_INFINITY : seen[id] - at)),
      );
    }
    return { name, delays };
  } finally {
    await browser.close();
    await relay.stop();
  }
}

async function main(): Promise<boolean> {
  const folder = await mkdtemp(join(tmpdir(), "oar-bench-console-"));
  let database: ScratchDatabase | undefined;
  try {
    database = await createScratchDatabase(ADMIN_URL);
    const load = loadavg()[0] ?? 0;
    const legs = [
      await leg("relay on PGlite", { RELAY_DATA_DIR: join(folder, "pglite"), RELAY_ALLOWED_ROOTS: folder }),
      await leg("relay on Postgres", {
        DATABASE_URL: database.url,
        RELAY_DATA_DIR: join(folder, "postgres"),
        RELAY_ALLOWED_ROOTS: folder,
      }),
    ];
    console.log(
      `\n${COUNT} approval cards, one at a time, each raised by a new conversation's create_session; load average ${load.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}; delay = seen in the page − the card's creation`,
    );
    console.log("| relay | watcher | p50 | p99 | max | unseen |");
    console.log("| --- | --- | ---: | ---: | ---: | ---: |");
    let met = true;
    const verdicts: string[] = [];
    for (const { name, delays } of legs) {
      for (const [watcher, samples] of delays) {
        const seen = samples.filter(Number.isFinite);
        const s = summarize(seen);
        console.log(
          `| ${name} | ${watcher} | ${s.p50.toFixed(0)} ms | ${s.p99.toFixed(0)} ms | ${s.max.toFixed(0)} ms | ${samples.length - seen.length} |`,
        );
      }
      const console99 = summarize(delays.get("the console (owner event stream)") ?? []).p99;
      const polled = summarize(delays.get("page polling /v1/owner/cards every 2 s") ?? []);
      const consoleP50 = summarize(delays.get("the console (owner event stream)") ?? []).p50;
      const ratio = polled.p50 / Math.max(consoleP50, 1);
      const p99Met = console99 < GOAL_P99_MS;
      const ratioMet = ratio >= GOAL_RATIO;
      met &&= p99Met && ratioMet;
      verdicts.push(
        `${name}: console p99 ${console99.toFixed(0)} ms (goal < ${GOAL_P99_MS} ms) ${p99Met ? "met" : "NOT met"}; p50 ${ratio.toFixed(1)}× sooner than polling every 2 s (goal ≥ ${GOAL_RATIO}×) ${ratioMet ? "met" : "NOT met"}`,
      );
    }
    console.log(`\n${verdicts.join("\n")}`);
    return met;
  } finally {
    await database?.drop();
    await rm(folder, { recursive: true, force: true });
  }
}

process.exitCode = (await main()) ? 0 : 1;
