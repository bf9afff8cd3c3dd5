/// <reference lib="dom" />
// Draws docs/console-*.png: the console's main views at desktop and phone width, over a demo
// relay paired with a second one. Run: pnpm --filter @oar/relay screenshots (needs Chromium).
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { eventually, OWNER_TOKEN } from "../harness";
import { type ServedRelay, serveRelay } from "../support/served-relay";

const DOCS = new URL("../../../../docs/", import.meta.url);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

interface Card {
  readonly id: string;
  readonly sessionId: string;
}

const tool = (text: string) => `!tool ${text}`;

async function allowCardOf(served: ServedRelay, sessionId: string): Promise<void> {
  const card = await eventually(async () =>
    (await served.ownerJson<{ cards: Card[] }>("GET", "/v1/owner/cards?status=pending")).cards.find(
      (c) => c.sessionId === sessionId,
    ),
  );
  await served.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
}

async function idle(served: ServedRelay, id: string): Promise<void> {
  await eventually(async () => {
    const view = await served.ownerJson<{ turns: { status: string }[] }>("GET", `/v1/owner/sessions/${id}`);
    return view.turns.every((turn) => turn.status !== "queued" && turn.status !== "running")
      ? true
      : undefined;
  }, 30_000);
}

/** A lead conversation whose agent started a builder, watches it, set a schedule and asked a question. */
async function demo(desk: ServedRelay, lab: ServedRelay): Promise<string> {
  const { token: invite } = await lab.ownerJson<{ token: string }>("POST", "/v1/owner/peers/invites");
  await desk.ownerJson("POST", "/v1/owner/peers", {
    name: "lab",
    url: lab.base,
    token: invite,
    level: "prompt",
  });
  await desk.ownerJson("POST", "/v1/owner/peers/invites");

  const lead = await desk.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    title: "Release 2.4",
    text: "!reply Ready to coordinate the release.",
  });
  await idle(desk, lead.id);
  await desk.ownerJson("POST", `/v1/owner/sessions/${lead.id}/messages`, {
    text: tool(
      '{"action":"create_session","relay":"this","title":"Builder","text":"!reply Build 2.4.0-rc1 is green.","wait_seconds":20}',
    ),
  });
  await allowCardOf(desk, lead.id);
  await idle(desk, lead.id);
  const { sessions } = await desk.ownerJson<{ sessions: { id: string; title: string }[] }>(
    "GET",
    "/v1/owner/sessions",
  );
  const builder = sessions.find((s) => s.title === "Builder");
  if (!builder) {
    throw new Error("the lead's agent did not start the builder");
  }
  await desk.ownerJson("POST", `/v1/owner/sessions/${lead.id}/messages`, {
    text: tool(`{"action":"subscribe","sessions":["${builder.id}"],"events":["error","turn_end"]}`),
  });
  await allowCardOf(desk, lead.id);
  await idle(desk, lead.id);
  await desk.ownerJson("POST", `/v1/owner/sessions/${builder.id}/messages`, {
    text: "!error the lint step failed",
  });
  await idle(desk, builder.id);
  await idle(desk, lead.id);
  await desk.ownerJson("POST", `/v1/owner/sessions/${lead.id}/messages`, {
    text: [
      tool(
        `{"action":"schedule","session":"${builder.id}","title":"Nightly build","text":"!reply nightly build done","every_minutes":1440}`,
      ),
      tool(
        '{"action":"ask","question":"Ship 2.4.0 to production tonight?","options":["ship tonight","wait for QA"],"recommendation":"wait for QA"}',
      ),
    ].join("\n"),
  });
  await idle(desk, lead.id);

  // Waiting for the owner: a blocking question, and an outside agent's first session.
  await desk.ownerJson("POST", "/v1/owner/sessions", {
    title: "Reviewer",
    text: "!ask Merge PR #42 (release notes) now? | merge | wait",
  });
  const ops = await desk.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    provider: "external",
    title: "Ops on call",
  });
  const token = await desk.agentToken(ops.id);
  void desk
    .tool(token, {
      action: "create_session",
      relay: "this",
      title: "Rollback drill",
      text: "!reply ok",
      model: "script-2",
    })
    .catch(() => {});
  return lead.id;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "oar-screens-"));
  const desk = await serveRelay({ name: "desk", dataDir: join(root, "desk"), allowedRoots: [root] });
  const lab = await serveRelay({ name: "lab", dataDir: join(root, "lab"), allowedRoots: [root] });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const lead = await demo(desk, lab);
    await mkdir(DOCS, { recursive: true });
    const shots: [string, string, { width: number; height: number }][] = [
      ["console-inbox", "#/inbox", DESKTOP],
      ["console-conversations", "#/conversations", DESKTOP],
      ["console-conversation", `#/conversations/${lead}`, DESKTOP],
      ["console-settings", "#/settings", DESKTOP],
      ["console-inbox-phone", "#/inbox", PHONE],
      ["console-conversation-phone", `#/conversations/${lead}`, PHONE],
    ];
    for (const [name, hash, viewport] of shots) {
      const context = await browser.newContext({ viewport, baseURL: desk.base, colorScheme: "light" });
      const page = await context.newPage();
      page.on("pageerror", (error) => console.error(`${name}: ${error.message}`));
      // Signed in already, as after the first visit.
      await page.addInitScript((token) => localStorage.setItem("oar.ownerToken", token), OWNER_TOKEN);
      await page.goto(`/${hash}`);
      await page.locator("#link-state[data-state=live]").waitFor();
      await page.locator("main h2").first().waitFor();
      await page.waitForTimeout(300);
      const chip = page.locator("details.chip");
      if ((await chip.count()) > 0) {
        await chip.locator("summary").click();
      }
      await page.screenshot({ path: new URL(`${name}.png`, DOCS).pathname, fullPage: viewport === DESKTOP });
      await context.close();
      console.log(`docs/${name}.png`);
    }
  } finally {
    await browser.close();
    await desk.close();
    await lab.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
