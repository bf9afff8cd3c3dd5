// The callbacks given to page.evaluate run in the page: they see the DOM.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { join } from "node:path";
import type { Page } from "playwright-core";
import { eventually } from "../harness";
import type { ServedRelay } from "../support/served-relay";

/** A string of `length` characters with nowhere a line may break (no space, no hyphen). */
const unbroken = (head: string, length: number) =>
  `${head}_${"abcdefghij".repeat(Math.ceil(length / 10))}`.slice(0, length);

/** The longest name a relay may have (63 characters, RELAY_NAME), with nowhere to break. */
export const LONGEST_RELAY_NAME = unbroken("Relay", 63);

/**
 * What the relay sends at its longest (LIMITS: titles 200, options 200; model ids 100, provider
 * ids 40, peer names 63), each with a word of its own so a test can find where it is shown.
 * The lead's title has spaces, as the had; the others have nowhere to break.
 */
export const LONG = {
  lead: "Migrate the billing service to the new ledger API, backfill the invoices of last quarter, run the reconciliation for every region again, and ask the reviewers on the lab relay before merging anything",
  helper: unbroken("Helper", 200),
  pending: unbroken("PendingAgent", 200),
  reviewer: unbroken("Reviewer", 200),
  commandTitle: unbroken("CommandTitle", 200),
  schedule: unbroken("Schedule", 200),
  reply: unbroken("Reply", 600),
  blocking: unbroken("BlockingQuestion", 400),
  choice: unbroken("Choice", 200),
  question: unbroken("InboxQuestion", 600),
  option: unbroken("Option", 200),
  provider: `long${"x".repeat(36)}`,
  model: `vendor/${"m".repeat(80)}-2026-01-01`.slice(0, 100),
  program: `/opt/${"tools/".repeat(30)}agent`,
  peer: unbroken("Peer", 63),
  // Port 1: nothing answers there, so the pairing stays offline with a problem to show.
  peerUrl: `http://127.0.0.1:1/${"path/".repeat(40)}relay`,
} as const;

/** Four folders of 60 characters each, below the relay's allowed root: a path of some 250. */
export const LONG_FOLDER = join(...[0, 1, 2, 3].map((n) => `folder${n}_${"p".repeat(52)}`));

export interface LongTexts {
  readonly lead: string;
  readonly helper: string;
  readonly command: string;
  readonly folder: string;
}

interface Card {
  readonly id: string;
  readonly kind: string;
  readonly sessionId: string;
}

const pendingCard = (served: ServedRelay, sessionId: string, kind?: string) =>
  eventually(async () =>
    (await served.ownerJson<{ cards: Card[] }>("GET", "/v1/owner/cards?status=pending")).cards.find(
      (card) => card.sessionId === sessionId && (kind === undefined || card.kind === kind),
    ),
  );

async function allowCardOf(served: ServedRelay, sessionId: string): Promise<void> {
  const card = await pendingCard(served, sessionId);
  await served.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
}

/**
 * Fills the relay with every view's longest case: an agent's conversation (the lead) that started
 * a helper, watches it, set it a schedule and asked an Inbox question; a conversation on a command
 * provider with the longest model id in the longest folder; a pending approval card and a
 * blocking question card; a pairing with the longest name and address; an invite.
 * `folder` is the relay's allowed root.
 */
export async function seedLongTexts(served: ServedRelay, folder: string): Promise<LongTexts> {
  await served.ownerJson("PATCH", "/v1/owner/settings", {
    providers: { [LONG.provider]: { command: [LONG.program, "--model", "{model}"], models: [LONG.model] } },
  });
  const command = await served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    provider: LONG.provider,
    model: LONG.model,
    cwd: folder,
    title: LONG.commandTitle,
  });

  const lead = await served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    provider: "external",
    title: LONG.lead,
  });
  const token = await served.agentToken(lead.id);
  const creating = served.tool(token, {
    action: "create_session",
    relay: "this",
    title: LONG.helper,
    text: `!reply ${LONG.reply}`,
    wait_seconds: 20,
  });
  await allowCardOf(served, lead.id);
  const created = await creating;
  const helper = String(created.session);
  const subscribing = served.tool(token, { action: "subscribe", sessions: [helper] });
  await allowCardOf(served, lead.id);
  for (const call of [
    await subscribing,
    created,
    await served.tool(token, {
      action: "schedule",
      session: helper,
      title: LONG.schedule,
      text: "!reply scheduled",
      every_minutes: 60,
    }),
    await served.tool(token, {
      action: "ask",
      question: LONG.question,
      options: [LONG.option, "no"],
      recommendation: LONG.option,
    }),
  ]) {
    if (!call.ok) {
      throw new Error(`the lead's call failed: ${JSON.stringify(call)}`);
    }
  }

  // Waiting for the owner: an outside agent's first session (its call waits on the card until the
  // relay closes) and a blocking question.
  const pending = await served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    provider: "external",
    title: LONG.pending,
  });
  served
    .tool(await served.agentToken(pending.id), {
      action: "create_session",
      relay: "this",
      title: "Pending helper",
      text: "!reply ok",
      wait_seconds: 600,
    })
    .catch(() => {});
  const reviewer = await served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    title: LONG.reviewer,
    text: `!ask ${LONG.blocking} | ${LONG.choice} | wait`,
  });
  await pendingCard(served, pending.id);
  await pendingCard(served, reviewer.id);

  await served.ownerJson("POST", "/v1/owner/peers", {
    name: LONG.peer,
    url: LONG.peerUrl,
    token: `oar_invite_${"t".repeat(200)}`,
    level: "read",
  });
  await served.ownerJson("POST", "/v1/owner/peers/invites");
  // The helper's first turn has replied: its messages are all there.
  await eventually(async () => {
    const view = await served.ownerJson<{ turns: { status: string }[] }>(
      "GET",
      `/v1/owner/sessions/${helper}`,
    );
    return view.turns.length > 0 && view.turns.every((turn) => turn.status === "done") ? true : undefined;
  });
  return { lead: lead.id, helper, command: command.id, folder };
}

/** A text that does not fit: where it is cut, and what the owner has to read it whole. */
export interface CutText {
  readonly tag: string;
  readonly text: string;
  readonly title: string;
  /** A clipped text (dom.js clip): focusable, so a tap or Tab shows it whole. */
  readonly clip: boolean;
}

/** The page at phone width: how wide it is laid out, where the header and the heading are, what is cut. */
export interface PhoneLayout {
  readonly wide: number;
  readonly viewport: number;
  readonly headerBottom: number;
  readonly heading: { readonly text: string; readonly top: number; readonly bottom: number };
  readonly viewportHeight: number;
  readonly cut: readonly CutText[];
}

export function phoneLayout(page: Page): Promise<PhoneLayout> {
  return page.evaluate(() => {
    const header = document.querySelector("header.top");
    const headerBottom =
      header instanceof HTMLElement && !header.hidden ? header.getBoundingClientRect().bottom : 0;
    const heading = document.querySelector("main h2");
    const place = heading?.getBoundingClientRect();
    const cut = [...document.querySelectorAll<HTMLElement>("header *, main *")]
      .filter((element) => {
        const style = getComputedStyle(element);
        const clips = style.overflowX !== "visible" || style.overflowY !== "visible";
        const control = element.matches("input, select, textarea, option");
        return clips && !control && element.scrollWidth > element.clientWidth;
      })
      .map((element) => ({
        tag: element.tagName.toLowerCase(),
        text: element.textContent ?? "",
        title: element.title,
        clip: element.classList.contains("clip") && element.tabIndex >= 0,
      }));
    return {
      wide: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      headerBottom,
      heading: { text: heading?.textContent ?? "", top: place?.top ?? -1, bottom: place?.bottom ?? -1 },
      viewportHeight: window.innerHeight,
      cut,
    };
  });
}

/**
 * Where `text` is shown: `shown` when every place that holds it shows it whole, `title` when a
 * place cuts it and gives it whole in its title, `hidden` when a place cuts it without, `absent`
 * when nothing holds it.
 */
export function whereShown(page: Page, text: string): Promise<"shown" | "title" | "hidden" | "absent"> {
  return page.evaluate((whole) => {
    const holders = [...document.querySelectorAll<HTMLElement>("header *, main *")].filter(
      (element) =>
        element.textContent?.includes(whole) &&
        ![...element.children].some((child) => child.textContent?.includes(whole)),
    );
    if (holders.length === 0) {
      return "absent";
    }
    const states = holders.map((holder) => {
      for (let at: HTMLElement | null = holder; at !== null && at !== document.body; at = at.parentElement) {
        const style = getComputedStyle(at);
        const clips = style.overflowX !== "visible" || style.overflowY !== "visible";
        if (clips && at.scrollWidth > at.clientWidth) {
          return at.title.includes(whole) ? "title" : "hidden";
        }
      }
      return "shown";
    });
    return states.includes("hidden") ? "hidden" : states.includes("title") ? "title" : "shown";
  }, text);
}
