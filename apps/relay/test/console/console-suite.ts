// The console's browser suite, run by console.browser.test.ts (PGlite) and
// console-postgres.browser.test.ts (Postgres, and two paired relays), so the two halves run side
// by side. The callbacks given to page.evaluate run in the page: they see the DOM.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScratchDatabase } from "@oar/storage/testing";
import { startTcpProxy } from "@oar/storage/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, OWNER_TOKEN } from "../harness";
import { TEST_POSTGRES_URL, useScratchPostgres } from "../support/postgres";
import { type ServedRelay, serveRelay, type ToolResult } from "../support/served-relay";
import { type ConsoleScreen, openConsole, PHONE, signIn, useBrowser } from "./browser";
import {
  LONG,
  LONG_FOLDER,
  LONGEST_RELAY_NAME,
  type LongTexts,
  phoneLayout,
  seedLongTexts,
  whereShown,
} from "./long-texts";

interface Card {
  readonly id: string;
  readonly kind: string;
  readonly action?: string;
  readonly sessionId: string;
  readonly createdAt: number;
}

interface Detail {
  readonly id: string;
  readonly watching: number;
  readonly subscriptions?: readonly { readonly id: string }[];
  readonly messages: readonly { readonly role: string; readonly text: string }[];
  readonly turns: readonly { readonly status: string }[];
}

const browser = useBrowser();

/** A scratch Postgres database made for a describe block (useScratchPostgres); absent, PGlite. */
type UseDatabase = () => () => ScratchDatabase;

/**
 * A relay over HTTP with its sessions in a scratch folder (`root`, its allowed root: `folder`
 * below the scratch folder when given), on PGlite or on a Postgres database of its own.
 */
function useServedRelay(
  name: string,
  { database, folder }: { database?: UseDatabase; folder?: string } = {},
) {
  const state = {} as { scratch: string; root: string; served: ServedRelay };
  const scratchDatabase = database?.();
  beforeAll(async () => {
    state.scratch = await mkdtemp(join(tmpdir(), `oar-console-${name}-`));
    state.root = join(state.scratch, folder ?? "");
    await mkdir(state.root, { recursive: true });
    state.served = await serveRelay({
      name,
      dataDir: join(state.scratch, "data"),
      allowedRoots: [state.root],
      ...(scratchDatabase === undefined ? {} : { databaseUrl: scratchDatabase().url }),
    });
  });
  afterAll(async () => {
    await state.served?.close();
    await rm(state.scratch, { recursive: true, force: true });
  });
  return state;
}

/** A conversation driven from outside (its agent is this test, calling relay_tool with its token). */
async function externalAgent(served: ServedRelay, title: string) {
  const { id } = await served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    provider: "external",
    title,
  });
  return { id, token: await served.agentToken(id) };
}

const pendingCards = (served: ServedRelay) =>
  served.ownerJson<{ cards: Card[] }>("GET", "/v1/owner/cards?status=pending").then((answer) => answer.cards);

/** The pending card of `sessionId`, once its agent's call raised it. */
const cardOf = (served: ServedRelay, sessionId: string) =>
  eventually(async () => (await pendingCards(served)).find((card) => card.sessionId === sessionId));

/** A new conversation's agent asks for its first session (R-UI-01 (a)): the call waits on a card. */
async function firstSessionCard(served: ServedRelay, title: string) {
  const agent = await externalAgent(served, title);
  const call = served.tool(agent.token, {
    action: "create_session",
    relay: "this",
    title: `${title}'s helper`,
    text: "!reply ready",
    wait_seconds: 20,
  });
  return { call, card: await cardOf(served, agent.id) };
}

const detail = (served: ServedRelay, id: string) =>
  served.ownerJson<Detail>("GET", `/v1/owner/sessions/${id}`);

async function signedIn(served: ServedRelay, screen?: ConsoleScreen) {
  const opened = await openConsole(browser(), served.base, screen);
  await signIn(opened.page);
  return opened;
}

/** How long after the card was raised the page showed it. */
async function shownWithin(page: Page, card: Card): Promise<number> {
  await page.locator(`[data-card="${card.id}"]`).waitFor({ timeout: 1_000 });
  return Date.now() - card.createdAt;
}

/** Scrolls the view to its end, then goes to the one headed `heading` (by `go`, a tap or a click). */
async function arriveScrolled(page: Page, go: () => Promise<void>, heading: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await go();
  await page.getByRole("heading", { level: 2, name: heading, exact: true }).waitFor();
}

/**
 * The view at phone width: no wider than the screen; its heading in sight below the sticky
 * header; every text that is cut a clipped text whose title is its whole text; each of `texts`
 * shown whole or given whole in a title; and the first control, focused while the header covered
 * it, scrolled out from under it.
 */
async function expectFitsThePhone(page: Page, texts: readonly string[]): Promise<void> {
  await expect
    .poll(
      async () => {
        const { headerBottom, heading, viewportHeight } = await phoneLayout(page);
        return heading.top >= headerBottom && heading.bottom <= viewportHeight;
      },
      { message: "the heading is in sight, below the header" },
    )
    .toBe(true);
  const layout = await phoneLayout(page);
  expect(layout.wide, `${layout.heading.text}: laid out wider than the screen`).toBeLessThanOrEqual(
    layout.viewport,
  );
  expect(
    layout.cut.filter((cut) => !cut.clip || cut.title !== cut.text),
    `${layout.heading.text}: cut without the whole text in its title`,
  ).toEqual([]);
  for (const text of texts) {
    expect(["shown", "title"], text).toContain(await whereShown(page, text));
  }
  const first = page.locator("main :is(a, button, summary, input, select, textarea, .clip):visible").first();
  await first.evaluate((control) => {
    // Its top 40 px below the page's top: under the header, which is taller than that.
    window.scrollTo(0, control.getBoundingClientRect().top + window.scrollY - 40);
  });
  await first.focus();
  const { headerBottom } = await phoneLayout(page);
  expect(await first.evaluate((control) => control.getBoundingClientRect().top)).toBeGreaterThanOrEqual(
    headerBottom,
  );
}

/**
 * Taps each clipped text the view cuts (a link, which leads to the whole text, gets the focus as
 * from Tab): each shows whole, and the page stays as wide as the screen. Answers what was tapped.
 */
async function tapEveryCutText(page: Page): Promise<string[]> {
  const clips = page.locator("header .clip, main .clip");
  const tapped: string[] = [];
  for (let index = 0; index < (await clips.count()); index += 1) {
    const clip = clips.nth(index);
    const { cut, link, text } = await clip.evaluate((element) => ({
      cut: element.scrollWidth > element.clientWidth,
      link: element.tagName === "A",
      text: element.textContent ?? "",
    }));
    if (!cut) {
      continue;
    }
    if (link) {
      await clip.focus();
    } else {
      await clip.tap();
    }
    await expect
      .poll(() =>
        clip.evaluate((element) => ({
          focused: element === document.activeElement,
          whole: element.scrollWidth <= element.clientWidth,
          wide: document.documentElement.scrollWidth <= window.innerWidth,
        })),
      )
      .toEqual({ focused: true, whole: true, wide: true });
    tapped.push(text);
  }
  return tapped;
}

export function describeOn(label: string, database?: UseDatabase) {
  describe(`the owner's console in Chromium on ${label}`, { timeout: 60_000 }, () => {
    const t = useServedRelay("desk", database === undefined ? {} : { database });
    // What the page makes of the relay's answers does not depend on the store: these run on PGlite
    // only. The Postgres leg keeps what goes live through its rows: sign-in, a card and its answer,
    // the event stream's replay after a cut, questions, and a conversation's life.
    const onPGliteOnly = (name: string, test: () => Promise<void>) => {
      if (database === undefined) {
        it(name, test);
      }
    };
    const describeOnPGliteOnly = (name: string, body: () => void) => {
      if (database === undefined) {
        describe(name, body);
      }
    };

    it("signs in with the owner token, says when a token is wrong, keeps it, and forgets it on sign out", async () => {
      const { page, requests } = await openConsole(browser(), t.served.base);
      await page.getByLabel("Owner token").fill("not-the-owner-token-at-all");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect
        .poll(() => page.getByRole("alert").first().textContent())
        .toBe("That is not this relay's owner token.");
      await signIn(page);
      expect(await page.evaluate(() => localStorage.getItem("oar.ownerToken"))).toBe(OWNER_TOKEN);
      await page.reload();
      await page.getByRole("heading", { name: "Inbox" }).waitFor();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByLabel("Owner token").waitFor();
      expect(await page.evaluate(() => localStorage.getItem("oar.ownerToken"))).toBeNull();
      // The page uses the owner API only, and the token travels only in the Authorization header.
      const paths = requests.map((request) => new URL(request.url).pathname);
      expect(paths.filter((path) => !/^\/($|healthz$|console\/|v1\/owner\/)/.test(path))).toEqual([]);
      expect(requests.filter((request) => request.url.includes(OWNER_TOKEN))).toEqual([]);
      const ownerCalls = requests.filter((request) => new URL(request.url).pathname.startsWith("/v1/owner/"));
      expect(ownerCalls.length).toBeGreaterThan(2);
    });

    it("R-UI-01: an agent's card appears live within a second, with its count in the title; Allow completes the waiting call", async () => {
      const { page } = await signedIn(t.served);
      const { call, card } = await firstSessionCard(t.served, "Lead");
      expect(await shownWithin(page, card)).toBeLessThan(1_000);
      const shown = page.locator(`[data-card="${card.id}"]`);
      expect(await shown.getByRole("heading").textContent()).toContain("create_session · relay desk");
      expect(await shown.textContent()).toContain("“Lead”");
      await expect.poll(() => page.title()).toMatch(/^\(1\) OAR relay · desk$/);
      await shown.getByRole("button", { name: "Allow" }).click();
      const result = await call;
      expect(result).toMatchObject({ ok: true, status: "done", reply: { text: "ready" } });
      await page.getByText("Nothing waits for you.").waitFor();
      await expect.poll(() => page.title()).toBe("OAR relay · desk");
      // R-UI-05: the session the agent started shows its prompt with `↗ from` the relay, session and model.
      await page.evaluate((id) => {
        location.hash = `#/conversations/${id}`;
      }, String(result.session));
      const prompt = page.locator('.message[data-role="user"]').first();
      expect(await prompt.locator(".badge").textContent()).toBe("↗ from desk · “Lead” · external");
    });

    it("after the link is cut it reconnects with Last-Event-ID and shows the card raised meanwhile", async () => {
      const target = new URL(t.served.base);
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
      try {
        const { page } = await openConsole(browser(), `http://127.0.0.1:${proxy.port}`);
        await signIn(page);
        const resumedFrom: string[] = [];
        page.on("request", async (request) => {
          if (request.url().endsWith("/v1/owner/events")) {
            const id = (await request.allHeaders())["last-event-id"];
            if (id !== undefined) {
              resumedFrom.push(id);
            }
          }
        });
        // An event first, so the page holds an id to resume from.
        const warmUp = await t.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
          title: "Warm-up",
          text: "!reply hi",
        });
        await eventually(async () =>
          (await detail(t.served, warmUp.id)).turns[0]?.status === "done" ? true : undefined,
        );
        await proxy.cut();
        await page.locator("#link-state[data-state=reconnecting]").waitFor();
        const { call, card } = await firstSessionCard(t.served, "While away");
        await proxy.restore();
        await page.locator(`[data-card="${card.id}"]`).waitFor();
        expect(resumedFrom.length).toBeGreaterThan(0);
        expect(Number(resumedFrom.at(-1))).toBeGreaterThan(0);
        await page.locator(`[data-card="${card.id}"]`).getByRole("button", { name: "Allow" }).click();
        expect(await call).toMatchObject({ ok: true });
      } finally {
        await proxy.restore();
        await proxy.close();
      }
    });

    onPGliteOnly("a new card raises a desktop notification once the owner permitted them", async () => {
      const { page } = await openConsole(browser(), t.served.base);
      // Headless Chromium shows no notification: the page's Notification is recorded instead.
      await page.addInitScript(() => {
        const shown: { title: string; body: string | undefined }[] = [];
        Object.assign(window, { shown });
        class Recorded {
          static permission = "granted";
          static requestPermission = async () => "granted";
          constructor(title: string, options?: { body?: string }) {
            shown.push({ title, body: options?.body });
          }
        }
        Object.assign(window, { Notification: Recorded });
      });
      await page.reload();
      await signIn(page);
      const { call, card } = await firstSessionCard(t.served, "Night shift");
      await page.locator(`[data-card="${card.id}"]`).waitFor();
      expect(await page.evaluate(() => (window as unknown as { shown: unknown[] }).shown)).toEqual([
        { title: "Approval card", body: "Night shift wants create_session on desk" },
      ]);
      await page.locator(`[data-card="${card.id}"]`).getByRole("button", { name: "Deny" }).click();
      expect(await call).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    });

    onPGliteOnly(
      "R-UI-01: Deny refuses the waiting call with REMOTE_RELAY_PERMISSION and nothing is created",
      async () => {
        const { page } = await signedIn(t.served);
        const { call, card } = await firstSessionCard(t.served, "Careless");
        await page.locator(`[data-card="${card.id}"]`).getByRole("button", { name: "Deny" }).click();
        const result: ToolResult = await call;
        expect(result).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
        const { sessions } = await t.served.ownerJson<{ sessions: { title: string }[] }>(
          "GET",
          "/v1/owner/sessions",
        );
        expect(sessions.map((session) => session.title)).not.toContain("Careless's helper");
      },
    );

    it("R-QANS-02: a question answered in the Inbox wakes the agent that asked it", async () => {
      const { page } = await signedIn(t.served);
      const asker = await t.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        title: "Asker",
        text: '!tool {"action":"ask","question":"Which region?","options":["eu","us"],"recommendation":"eu"}',
      });
      const question = page.locator(".card.inbox", { hasText: "Which region?" });
      await question.waitFor();
      expect(await question.getByRole("button", { name: /eu/ }).textContent()).toContain("recommended");
      const turnsBefore = await eventually(async () => {
        const view = await detail(t.served, asker.id);
        return view.turns.every((turn) => turn.status === "done") ? view.turns.length : undefined;
      });
      await question.getByRole("button", { name: /eu/ }).click();
      await question.waitFor({ state: "detached" });
      const woken = await eventually(async () => {
        const view = await detail(t.served, asker.id);
        const answered = view.messages.find(
          (m) => m.role === "relay" && m.text.includes("question_answered"),
        );
        return answered && view.turns.length > turnsBefore ? answered : undefined;
      });
      expect(woken.text).toContain("eu");
      // In the asker's conversation: the event is a compact relay line, never the owner's, and
      // its agent's ask call a 🛰️ line with the action, the relay and the session.
      await page.evaluate((id) => {
        location.hash = `#/conversations/${id}`;
      }, asker.id);
      const event = page.locator('.event-line[data-role="relay"]', { hasText: "question_answered" });
      await event.waitFor();
      expect(await page.locator('.message[data-role="user"]', { hasText: "question_answered" }).count()).toBe(
        0,
      );
      expect(await page.locator('[data-role="tool"]').first().textContent()).toMatch(/^🛰️ ask · relay desk ✓/);
    });

    onPGliteOnly(
      "an Inbox question answered in free text, another dismissed: each closes as the owner said",
      async () => {
        const { page } = await signedIn(t.served);
        const asker = await t.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
          title: "Two questions",
          text: [
            '!tool {"action":"ask","question":"Name for the branch?"}',
            '!tool {"action":"ask","question":"Rename the repo?","options":["yes","no"]}',
          ].join("\n"),
        });
        const named = page.locator(".card.inbox", { hasText: "Name for the branch?" });
        const rename = page.locator(".card.inbox", { hasText: "Rename the repo?" });
        await rename.waitFor();
        await named.getByLabel("Your answer").fill("release/2.4");
        await named.getByRole("button", { name: "Answer" }).click();
        await named.waitFor({ state: "detached" });
        await rename.getByRole("button", { name: "Dismiss" }).click();
        await rename.waitFor({ state: "detached" });
        const { questions } = await t.served.ownerJson<{
          questions: { question: string; status: string; answer: string | null; askedBy: { id: string } }[];
        }>("GET", "/v1/owner/inbox?closed=true");
        const mine = questions.filter((q) => q.askedBy.id === asker.id);
        expect(mine.map(({ question, status, answer }) => ({ question, status, answer }))).toEqual(
          expect.arrayContaining([
            { question: "Name for the branch?", status: "answered", answer: "release/2.4" },
            { question: "Rename the repo?", status: "dismissed", answer: null },
          ]),
        );
      },
    );

    onPGliteOnly(
      "text typed while a live redraw's data is on its way stays in its card, and answers it",
      async () => {
        const { page } = await signedIn(t.served);
        await t.served.ownerJson("POST", "/v1/owner/sessions", {
          title: "Tagger",
          text: '!tool {"action":"ask","question":"Which tag for the release?"}',
        });
        const tag = page.locator(".card.inbox", { hasText: "Which tag for the release?" });
        await tag.waitFor();
        // The next read of the Inbox is held: the redraw a new question starts waits on it while
        // the owner types.
        let release = () => {};
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let reached = () => {};
        const held = new Promise<void>((resolve) => {
          reached = resolve;
        });
        await page.route(
          "**/v1/owner/inbox",
          async (route) => {
            reached();
            await released;
            await route.continue();
          },
          { times: 1 },
        );
        await t.served.ownerJson("POST", "/v1/owner/sessions", {
          title: "Dater",
          text: '!tool {"action":"ask","question":"Which date for the release?"}',
        });
        await held;
        await tag.getByLabel("Your answer").fill("v2.4.0");
        release();
        await page.locator(".card.inbox", { hasText: "Which date for the release?" }).waitFor();
        expect(await tag.getByLabel("Your answer").inputValue()).toBe("v2.4.0");
        await tag.getByRole("button", { name: "Answer" }).click();
        await tag.waitFor({ state: "detached" });
      },
    );

    it("R-RSES-02: a blocking question card answered in the Inbox lets its turn go on with that answer", async () => {
      const { page } = await signedIn(t.served);
      const reviewer = await t.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        title: "Reviewer",
        text: "!ask Merge PR #42 now? | merge | wait",
      });
      const card = page.locator(".card.question", { hasText: "Merge PR #42 now?" });
      await card.waitFor();
      await card.getByLabel("Your answer").fill("merge after the release notes");
      await card.getByRole("button", { name: "Answer" }).click();
      await card.waitFor({ state: "detached" });
      const replied = await eventually(async () => {
        const view = await detail(t.served, reviewer.id);
        return view.messages.find((m) => m.role === "assistant");
      });
      expect(replied.text).toContain("answer: merge after the release notes");
    });

    onPGliteOnly(
      "R-UI-07/R-UI-06: the watching chip lists the subscription; Unsubscribe ends it",
      async () => {
        const watcher = await externalAgent(t.served, "Watcher");
        const watched = await t.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
          title: "Watched",
        });
        const subscribing = t.served.tool(watcher.token, { action: "subscribe", sessions: [watched.id] });
        const card = await cardOf(t.served, watcher.id);
        await t.served.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
        expect(await subscribing).toMatchObject({ ok: true });

        const { page } = await signedIn(t.served);
        await page.getByRole("link", { name: "Conversations" }).click();
        const row = page.locator(`[data-session="${watched.id}"] .row`);
        await row.getByText("watched", { exact: true }).waitFor();
        await page.locator(`[data-session="${watcher.id}"] .row`).getByText("watching 1 session").waitFor();

        await page.getByRole("link", { name: "Watcher" }).click();
        await page.getByRole("heading", { name: "Watcher" }).waitFor();
        await page.locator("details.chip > summary", { hasText: "watching 1 session" }).click();
        await page.getByRole("button", { name: /Unsubscribe from “Watched”/ }).click();
        await page.getByText("watching 1 session").waitFor({ state: "detached" });
        const after = await detail(t.served, watcher.id);
        expect(after.watching).toBe(0);
        expect(after.subscriptions).toEqual([]);
      },
    );

    it("starts a conversation with a provider, model and folder; sets its switches; cancels its schedule; compacts and archives it", async () => {
      const { page } = await signedIn(t.served);
      page.on("dialog", (dialog) => dialog.accept());
      await page.getByRole("link", { name: "Conversations" }).click();
      await page.getByText("Start a conversation").click();
      await page.getByLabel("Provider").selectOption("script");
      await page.getByLabel("Model").selectOption("script-2");
      await page.getByLabel("Folder").fill(t.root);
      await page.getByLabel("Title").fill("Console-made");
      await page.getByLabel("First message").fill("!reply made from the console");
      await page.getByRole("button", { name: "Start the conversation" }).click();
      await page.getByRole("heading", { name: "Console-made" }).waitFor();
      await page.getByText("made from the console", { exact: true }).waitFor();
      const id = decodeURIComponent(new URL(page.url()).hash.split("/")[2] ?? "");
      expect(await t.served.ownerJson("GET", `/v1/owner/sessions/${id}`)).toMatchObject({
        provider: "script",
        model: "script-2",
        cwd: t.root,
      });

      const token = await t.served.agentToken(id);
      const scheduled = await t.served.tool(token, {
        action: "schedule",
        title: "Hourly look",
        text: "!reply looked",
        every_minutes: 60,
      });
      expect(scheduled).toMatchObject({ ok: true });
      await page.reload();
      await page.getByRole("heading", { name: "Console-made" }).waitFor();
      await page.getByLabel("Agents in this conversation may start sessions").check();
      await page.getByLabel("Mode").selectOption("plan");
      await eventually(async () => {
        const view = await t.served.ownerJson<{ mayCreateSessions: boolean; mode: string }>(
          "GET",
          `/v1/owner/sessions/${id}`,
        );
        return view.mayCreateSessions && view.mode === "plan" ? true : undefined;
      });

      const entry = page.locator(`[data-schedule="${String(scheduled.schedule_id)}"]`);
      await entry.getByRole("button", { name: "Cancel" }).click();
      await entry.getByText("unscheduled").waitFor();

      await page.getByRole("button", { name: "Compact" }).click();
      await page.getByRole("heading", { name: "Console-made" }).waitFor();
      await expect.poll(() => page.url()).not.toContain(id);
      const next = decodeURIComponent(new URL(page.url()).hash.split("/")[2] ?? "");
      // The old conversation is archived; the new one continues it under the same title.
      const old = await t.served.ownerJson<{ archivedAt: number | null }>("GET", `/v1/owner/sessions/${id}`);
      expect(old.archivedAt).not.toBeNull();
      expect(await t.served.ownerJson("GET", `/v1/owner/sessions/${next}`)).toMatchObject({
        title: "Console-made",
      });

      await page.getByRole("button", { name: "Kill" }).click();
      await page.getByRole("button", { name: "Archive" }).click();
      await page.getByRole("heading", { name: "Conversations" }).waitFor();
      const archived = await t.served.ownerJson<{ archivedAt: number | null }>(
        "GET",
        `/v1/owner/sessions/${next}`,
      );
      expect(archived.archivedAt).not.toBeNull();
    });

    onPGliteOnly(
      "Settings → Relays saves the switches (the longest wait 120 ok, 119 held back) adds and removes a command provider, saying the relay's refusal, and adds an ACP agent without models",
      async () => {
        const { page } = await signedIn(t.served);
        await page.getByRole("link", { name: "Settings" }).click();
        await page.getByLabel("Accept prompts from other relays' agents").uncheck();
        await page.getByLabel("Longest wait (seconds)").fill("119");
        const agentSessions = page.locator("section", {
          has: page.getByRole("heading", { name: "Agent sessions" }),
        });
        await agentSessions.getByRole("button", { name: "Save" }).click();
        // The browser holds the form back at the field's own limits.
        expect(
          await page
            .getByLabel("Longest wait (seconds)")
            .evaluate((input) => (input as HTMLInputElement).validity.rangeUnderflow),
        ).toBe(true);
        const unchanged = await t.served.ownerJson<{ acceptPromptsFromOtherRelays: boolean }>(
          "GET",
          "/v1/owner/settings",
        );
        expect(unchanged.acceptPromptsFromOtherRelays).toBe(true);
        await page.getByLabel("Longest wait (seconds)").fill("120");
        await agentSessions.getByRole("button", { name: "Save" }).click();
        await eventually(async () => {
          const saved = await t.served.ownerJson<{
            acceptPromptsFromOtherRelays: boolean;
            agentSessions: { longestWaitSeconds: number };
          }>("GET", "/v1/owner/settings");
          return saved.agentSessions.longestWaitSeconds === 120 && !saved.acceptPromptsFromOtherRelays
            ? true
            : undefined;
        });
        await page.getByLabel("Accept prompts from other relays' agents").check();
        await agentSessions.getByRole("button", { name: "Save" }).click();

        // What only the relay knows it says: an empty command is refused, and nothing is added.
        await page.getByLabel("Id", { exact: true }).fill("echoer");
        await page.getByLabel("Models", { exact: true }).fill("echo-1");
        await page.getByLabel("Command", { exact: true }).fill("[]");
        await page.getByRole("button", { name: "Add provider" }).click();
        const providersPanel = page.locator("section", {
          has: page.getByRole("heading", { name: "Providers (command CLIs and ACP agents)" }),
        });
        await providersPanel
          .getByRole("alert")
          .getByText("REMOTE_RELAY_INVALID_INPUT", { exact: false })
          .waitFor();
        await page.getByLabel("Id", { exact: true }).fill("echoer");
        await page.getByLabel("Models", { exact: true }).fill("echo-1, echo-2");
        await page.getByLabel("Command", { exact: true }).fill('["cat"]');
        await page.getByRole("button", { name: "Add provider" }).click();
        const listed = page.locator("li", { hasText: "echoer" });
        await listed.waitFor();
        expect(await listed.textContent()).toContain("echo-1, echo-2");
        await listed.getByRole("button", { name: "Remove" }).click();
        await listed.waitFor({ state: "detached" });
        // An ACP agent needs no models: it offers its own.
        await page.getByLabel("Id", { exact: true }).fill("gemini");
        await page.getByLabel("Kind", { exact: true }).selectOption("acp");
        await page.getByLabel("Models", { exact: true }).fill("");
        await page.getByLabel("Command", { exact: true }).fill('["gemini", "--experimental-acp"]');
        await page.getByRole("button", { name: "Add provider" }).click();
        const acpListed = page.locator("li", { hasText: "gemini" });
        await acpListed.waitFor();
        expect(await acpListed.textContent()).toContain("(ACP)");
        expect(await acpListed.textContent()).toContain("models from the agent");
        const { providers } = await t.served.ownerJson<{ providers: Record<string, unknown> }>(
          "GET",
          "/v1/owner/settings",
        );
        expect(providers).not.toHaveProperty("echoer");
        expect(providers.gemini).toEqual({ acp: ["gemini", "--experimental-acp"] });
      },
    );

    onPGliteOnly("shows what agents wrote as text: markup in a title or a message never runs", async () => {
      const hostile = '<img src=x onerror="window.pwned=1">';
      const session = await t.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        title: hostile,
        text: `!reply <script>window.pwned=2</script>${hostile}`,
      });
      await eventually(async () =>
        (await detail(t.served, session.id)).messages.length === 2 ? true : undefined,
      );
      const { page } = await signedIn(t.served);
      await page.evaluate((id) => {
        location.hash = `#/conversations/${id}`;
      }, session.id);
      await page.getByRole("heading", { name: hostile }).waitFor();
      await page.getByText(`<script>window.pwned=2</script>${hostile}`, { exact: true }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      expect(await page.locator("main img").count()).toBe(0);
    });

    onPGliteOnly(
      "is readable at phone width: nothing scrolls sideways and every control has a label",
      async () => {
        const { page } = await signedIn(t.served, PHONE);
        const views = [
          ["#/conversations", "Conversations"],
          ["#/settings", "Settings → Relays"],
          ["#/inbox", "Inbox"],
        ] as const;
        for (const [hash, heading] of views) {
          await page.evaluate((to) => {
            location.hash = to;
          }, hash);
          // A view is drawn at once, heading and all, when its data has come.
          await page.getByRole("heading", { name: heading, exact: true }).waitFor();
          const layout = await page.evaluate(() => ({
            wide: document.documentElement.scrollWidth,
            viewport: window.innerWidth,
            unlabelled: [...document.querySelectorAll("main input, main select, main textarea")]
              .filter((control) => !(control as HTMLInputElement).hidden)
              .filter(
                (control) =>
                  ((control as HTMLInputElement).labels?.length ?? 0) === 0 &&
                  !control.getAttribute("aria-label"),
              )
              .map((control) => control.outerHTML),
          }));
          expect(layout.wide, hash).toBeLessThanOrEqual(layout.viewport);
          expect(layout.unlabelled, hash).toEqual([]);
        }
      },
    );

    describeOnPGliteOnly(
      "at phone width (390 × 844), with the longest names, titles, paths, model ids and summaries",
      () => {
        const long = useServedRelay(LONGEST_RELAY_NAME, {
          ...(database === undefined ? {} : { database }),
          folder: LONG_FOLDER,
        });
        const seeded = {} as { texts: LongTexts };
        beforeAll(async () => {
          seeded.texts = await seedLongTexts(long.served, long.root);
        });
        const via = `via agent · "${LONG.lead}"`;

        it("sign-in fits the screen", async () => {
          const { page } = await openConsole(browser(), long.served.base, PHONE);
          await page.getByRole("heading", { name: "Sign in" }).waitFor();
          await expectFitsThePhone(page, []);
          await signIn(page);
          // The header's relay name is cut to its line, and whole when tapped.
          await expectFitsThePhone(page, [LONGEST_RELAY_NAME]);
          expect(await tapEveryCutText(page)).toContain(LONGEST_RELAY_NAME);
        });

        it("the Inbox: approval cards, question cards and Inbox questions", async () => {
          const { page } = await signedIn(long.served, PHONE);
          await page.getByRole("link", { name: "Settings" }).click();
          await page.getByRole("heading", { name: "Settings → Relays" }).waitFor();
          await arriveScrolled(page, () => page.getByRole("link", { name: /^Inbox/ }).tap(), "Inbox");
          for (const kind of ["approval", "question", "inbox"]) {
            await page.locator(`.card.${kind}`).waitFor();
          }
          await expectFitsThePhone(page, [
            `create_session · relay ${LONGEST_RELAY_NAME}`,
            `“${LONG.pending}”`,
            LONG.blocking,
            `“${LONG.reviewer}”`,
            LONG.choice,
            LONG.question,
            LONG.option,
            `“${LONG.lead}”`,
          ]);
          expect(await tapEveryCutText(page)).toEqual(
            expect.arrayContaining([`“${LONG.pending}”`, `“${LONG.reviewer}”`]),
          );
        });

        it("Conversations: titles, the via agent badge, providers and model ids", async () => {
          const { page } = await signedIn(long.served, PHONE);
          await arriveScrolled(
            page,
            () => page.getByRole("link", { name: "Conversations", exact: true }).tap(),
            "Conversations",
          );
          const row = page.locator(`[data-session="${seeded.texts.helper}"] .row`);
          await row.locator(".badge.via").waitFor();
          await expectFitsThePhone(page, [
            LONG.lead,
            LONG.helper,
            via,
            LONG.commandTitle,
            `${LONG.provider} · ${LONG.model}`,
            LONG.pending,
            LONG.reviewer,
          ]);
          expect(await tapEveryCutText(page)).toEqual(
            expect.arrayContaining([via, LONG.helper, `${LONG.provider} · ${LONG.model}`]),
          );
          // A badge tapped open stays open across the live redraws of the list (the new
          // conversation's turn_started and turn_end): the badge drawn again has the focus.
          const badge = row.locator(".badge.via");
          await badge.tap();
          await badge.evaluate((tapped) => Object.assign(window, { tapped }));
          await long.served.ownerJson("POST", "/v1/owner/sessions", {
            title: "Redrawn",
            text: "!reply redrawn",
          });
          await page.getByRole("link", { name: "Redrawn" }).waitFor();
          await expect
            .poll(() =>
              badge.evaluate((shown) => ({
                redrawn: !(window as unknown as { tapped: Element }).tapped.isConnected,
                focused: shown === document.activeElement,
                whole: shown.isConnected && shown.scrollWidth <= shown.clientWidth,
              })),
            )
            .toEqual({ redrawn: true, focused: true, whole: true });
        });

        it("a conversation: badges, ↗ from, the watching chip, schedules, 🛰️ lines, messages, model and folder", async () => {
          const { page } = await signedIn(long.served, PHONE);
          await page.getByRole("link", { name: "Conversations", exact: true }).click();
          await page.getByRole("heading", { name: "Conversations" }).waitFor();
          const from = `↗ from ${LONGEST_RELAY_NAME} · “${LONG.lead}” · external`;
          await arriveScrolled(page, () => page.getByRole("link", { name: LONG.helper }).tap(), LONG.helper);
          await expectFitsThePhone(page, [
            LONG.helper,
            via,
            from,
            LONG.schedule,
            `“${LONG.lead}”`,
            LONG.reply,
          ]);
          expect(await tapEveryCutText(page)).toEqual(expect.arrayContaining([via, from, LONG.schedule]));

          await page.getByRole("link", { name: "← Conversations" }).click();
          await page.getByRole("heading", { name: "Conversations" }).waitFor();
          await arriveScrolled(page, () => page.getByRole("link", { name: LONG.lead }).tap(), LONG.lead);
          await page.locator("details.chip > summary").tap();
          await page.locator("details.chip li").waitFor();
          const toolLines = await page.locator('[data-role="tool"]').allTextContents();
          expect(toolLines.join("\n")).toContain(LONGEST_RELAY_NAME);
          await expectFitsThePhone(page, [LONG.lead, `“${LONG.helper}”`, LONG.schedule, ...toolLines]);
          expect(await tapEveryCutText(page)).toEqual(
            expect.arrayContaining([LONG.schedule, `“${LONG.helper}”`]),
          );

          await page.getByRole("link", { name: "← Conversations" }).click();
          await page.getByRole("heading", { name: "Conversations" }).waitFor();
          const details = `${LONG.provider} · ${LONG.model} · ${seeded.texts.folder}`;
          await arriveScrolled(
            page,
            () => page.getByRole("link", { name: LONG.commandTitle }).tap(),
            LONG.commandTitle,
          );
          await expectFitsThePhone(page, [LONG.commandTitle, details]);
          expect(await tapEveryCutText(page)).toContain(details);
        });

        it("Settings → Relays: allowed folders, command providers, pairings and invites", async () => {
          const { page } = await signedIn(long.served, PHONE);
          await arriveScrolled(
            page,
            () => page.getByRole("link", { name: "Settings" }).tap(),
            "Settings → Relays",
          );
          const peer = page.locator(`[data-peer="${LONG.peer}"]`);
          await peer.waitFor();
          const problem = (await peer.locator("td").nth(2).textContent()) ?? "";
          await expectFitsThePhone(page, [
            seeded.texts.folder,
            LONG.provider,
            LONG.program,
            LONG.model,
            LONG.peer,
            LONG.peerUrl,
            problem,
          ]);
          // The skip link moves the focus to the view; it is not an address of a view.
          await page.locator("a.skip").focus();
          await page.keyboard.press("Enter");
          await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
          expect(await page.getByRole("heading", { level: 2 }).textContent()).toBe("Settings → Relays");
        });
      },
    );
  });
}

/** The console on Postgres: what the PGlite leg does that goes live through the store's rows. */
export function describeOnPostgres() {
  describe.skipIf(TEST_POSTGRES_URL === undefined)("on Postgres", () => {
    describeOn("Postgres", useScratchPostgres);
  });
}

export function describeWithPairedRelay() {
  describe("the owner's console with a paired relay", { timeout: 60_000 }, () => {
    const desk = useServedRelay("desk");
    const lab = useServedRelay("lab");

    it("R-LOCK-01 (a): pairs with an invite in Settings, and a message mentioning the relay unlocks it", async () => {
      const { token: invite } = await lab.served.ownerJson<{ token: string }>(
        "POST",
        "/v1/owner/peers/invites",
      );
      const { page } = await signedIn(desk.served);
      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByLabel("Name", { exact: true }).fill("lab");
      await page.getByLabel("Address").fill(lab.served.base);
      await page.getByLabel("Invite", { exact: true }).fill(invite);
      await page.getByRole("button", { name: "Pair" }).click();
      const peer = page.locator('[data-peer="lab"]');
      await peer.getByText("online").waitFor();
      expect(await peer.getByRole("combobox").inputValue()).toBe("full");
      await peer.getByRole("combobox").selectOption("prompt");
      await eventually(async () => {
        const { peers } = await desk.served.ownerJson<{ peers: { name: string; level: string }[] }>(
          "GET",
          "/v1/owner/peers",
        );
        return peers.find((p) => p.name === "lab")?.level === "prompt" ? true : undefined;
      });
      await peer.getByRole("combobox").selectOption("full");
      await eventually(async () => {
        const { peers } = await desk.served.ownerJson<{ peers: { name: string; level: string }[] }>(
          "GET",
          "/v1/owner/peers",
        );
        return peers.find((p) => p.name === "lab")?.level === "full" ? true : undefined;
      });

      const lead = await desk.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        title: "Lead",
      });
      const token = await desk.served.agentToken(lead.id);
      const unlocked = async () => {
        const listed = await desk.served.tool(token, { action: "list_relays" });
        return (listed.relays as { name: string; unlocked: boolean }[]).find((relay) => relay.name === "lab")
          ?.unlocked;
      };
      expect(await unlocked()).toBe(false);

      await page.getByRole("link", { name: "Conversations" }).click();
      await page.getByRole("link", { name: "Lead" }).click();
      await page
        .getByLabel("Message", { exact: true })
        .fill("!reply on it\nplease ask lab for the build log");
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByText("on it", { exact: true }).waitFor();
      expect(await unlocked()).toBe(true);
    });

    it("issues an invite shown once, lists it, and revokes it", async () => {
      const { page } = await signedIn(desk.served);
      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByRole("button", { name: "Issue an invite" }).click();
      const shown = await page.getByLabel("New invite").inputValue();
      expect(shown).toMatch(/^oar_invite_/);
      const { invites } = await desk.served.ownerJson<{ invites: { id: string; relay: string | null }[] }>(
        "GET",
        "/v1/owner/peers/invites",
      );
      const fresh = invites.filter((invite) => invite.relay === null);
      expect(fresh).toHaveLength(1);
      const item = page.locator(`[data-invite="${fresh[0]?.id}"]`);
      await item.getByRole("button", { name: "Revoke" }).click();
      await item.waitFor({ state: "detached" });
      const after = await desk.served.ownerJson<{ invites: { id: string }[] }>(
        "GET",
        "/v1/owner/peers/invites",
      );
      expect(after.invites.map((invite) => invite.id)).not.toContain(fresh[0]?.id);
    });
  });
}
