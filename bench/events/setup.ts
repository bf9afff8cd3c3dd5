import { inParallel, type OwnerApi } from "../lib/owner-api";
import { type Plan, subscriptionLayout } from "./plan";

/** The events every subscription names: no stall checks or all_idle, which would add ticks of their own. */
export const WATCHED_EVENTS = ["turn_end", "error"] as const;
const CARD_POLL_MS = 100;

export interface Sessions {
  /** The `script` sessions the load prompts. */
  readonly watched: readonly string[];
  /** The watching conversations, `external` (or `script`, see `watcherProvider`). */
  readonly watchers: readonly string[];
  readonly watcherProvider: string;
}

/**
 * The watchers are `external` conversations when the relay offers that provider (a message to
 * the watcher is appended and starts no turn, so the run measures the dispatcher alone); a relay
 * that refuses it gets `script` watchers, whose every message starts a turn.
 */
export async function createSessions(api: OwnerApi, plan: Plan): Promise<Sessions> {
  const watched: string[] = [];
  const watchers: string[] = [];
  await inParallel(plan.watched, async (i) => {
    const session = await api.post("/v1/owner/sessions", { provider: "script", title: `watched ${i}` });
    watched[i] = String(session.id);
  });
  let provider = "external";
  let first: Record<string, unknown>;
  try {
    first = await api.post("/v1/owner/sessions", { provider, title: "watcher 0" });
  } catch {
    provider = "script";
    first = await api.post("/v1/owner/sessions", { provider, title: "watcher 0" });
  }
  watchers[0] = String(first.id);
  await inParallel(plan.watchers - 1, async (i) => {
    const session = await api.post("/v1/owner/sessions", { provider, title: `watcher ${i + 1}` });
    watchers[i + 1] = String(session.id);
  });
  return { watched, watchers, watcherProvider: provider };
}

/** Allows every pending approval card until stopped: the owner saying yes to each first subscribe (card (b)). */
function allowCards(api: OwnerApi): { stop(): Promise<number> } {
  let stopped = false;
  let allowed = 0;
  const loop = (async () => {
    while (!stopped) {
      const { cards } = (await api.get("/v1/owner/cards?status=pending")) as { cards: { id: string }[] };
      for (const card of cards) {
        await api.post(`/v1/owner/cards/${card.id}`, { choice: "allow" });
        allowed++;
      }
      await new Promise((resolve) => setTimeout(resolve, CARD_POLL_MS));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return allowed;
    },
  };
}

async function agentCall(base: string, token: string, call: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/v1/tool`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(call),
  });
  const text = await response.text();
  const result = JSON.parse(text) as Record<string, unknown>;
  if (!response.ok || result.ok !== true) {
    throw new Error(`${JSON.stringify(call).slice(0, 120)}: ${response.status} ${text.slice(0, 300)}`);
  }
  return result;
}

/**
 * Each watcher's subscriptions, made by the watcher's own agent over /v1/tool, one watched session
 * each (`sessionsOf`). Its first subscribe waits on card (b), which the owner allows; the others
 * follow once it is through. Returns how many cards were allowed.
 */
export async function subscribeWatchers(
  base: string,
  api: OwnerApi,
  watchers: readonly string[],
  sessionsOf: (w: number) => readonly string[],
): Promise<number> {
  const cards = allowCards(api);
  const subscribing = inParallel(
    watchers.length,
    async (w) => {
      const watcher = watchers[w] ?? "";
      const { token } = (await api.post(`/v1/owner/sessions/${watcher}/token`, {})) as { token: string };
      for (const session of sessionsOf(w)) {
        await agentCall(base, token, { action: "subscribe", sessions: [session], events: WATCHED_EVENTS });
      }
    },
    16,
  );
  const outcome = await subscribing.then(
    () => null,
    (error: unknown) => error,
  );
  const allowed = await cards.stop();
  if (outcome !== null) {
    throw outcome;
  }
  return allowed;
}

/** Each watcher's 20 subscriptions as the plan lays them out (`subscriptionLayout`). */
export function subscribeAll(base: string, api: OwnerApi, plan: Plan, sessions: Sessions): Promise<number> {
  return subscribeWatchers(base, api, sessions.watchers, (w) =>
    subscriptionLayout(plan, w).map((index) => sessions.watched[index] ?? ""),
  );
}
