import type { Random } from "@oar/core/testing";
import type { Calls } from "./calls";
import { type Agent, must, type Soak, type Watcher } from "./cast";
import type { Journal } from "./journal";
import { createTarget } from "./prompting";
import { subscribe } from "./side-work";
import type { TurnScripts } from "./turn-script";

export const CAST = { agents: 3, watchers: 2, taskHosts: 2, ownerSessions: 4, targetsPerAgent: 2 } as const;
/** Sessions per subscription a watcher makes at the start. */
const SESSIONS_PER_SUBSCRIPTION = 2;

async function external(calls: Calls, title: string): Promise<{ id: string; token: string }> {
  const created = must(
    await calls.owner("POST", "/v1/owner/sessions", { provider: "external", title }),
    title,
  );
  const id = String(created.id);
  const issued = must(await calls.owner("POST", `/v1/owner/sessions/${id}/token`, {}), `${title}'s token`);
  return { id, token: String(issued.token) };
}

/**
 * The cast, made through the balancer before any fault (the owner's desk must be running: each
 * agent's first create_session and each watcher's first subscribe wait on a card): agents
 * (`external`) that each create their first `script` sessions, the owner's own `script`
 * sessions with a first prompt, the task hosts, and watchers subscribed to every busy session.
 */
export async function castSoak(base: {
  readonly calls: Calls;
  readonly journal: Journal;
  readonly scripts: TurnScripts;
  readonly random: Random;
  readonly loadEnd: number;
}): Promise<Soak> {
  const { calls, journal, scripts } = base;
  const agents: Agent[] = [];
  for (let i = 0; i < CAST.agents; i++) {
    const made = await external(calls, `agent ${i}`);
    journal.sessions.set(made.id, { by: "owner", at: Date.now() });
    agents.push({ ...made, targets: [] });
  }
  const watchers: Watcher[] = [];
  for (let i = 0; i < CAST.watchers; i++) {
    const made = await external(calls, `watcher ${i}`);
    journal.sessions.set(made.id, { by: "owner", at: Date.now() });
    watchers.push({ ...made, watching: new Set(), subscriptions: 0 });
  }
  const taskHosts: string[] = [];
  for (let i = 0; i < CAST.taskHosts; i++) {
    const made = must(
      await calls.owner("POST", "/v1/owner/sessions", { provider: "script", title: `task host ${i}` }),
      "task host",
    );
    journal.sessions.set(String(made.id), { by: "owner", at: Date.now() });
    taskHosts.push(String(made.id));
  }
  const ownerSessions: string[] = [];
  for (let i = 0; i < CAST.ownerSessions; i++) {
    const marker = scripts.marker("o");
    const record = journal.prompt({ marker, by: "owner", what: "create", at: Date.now(), session: null });
    const made = must(
      await calls.owner("POST", "/v1/owner/sessions", {
        provider: "script",
        title: `owner ${marker}`,
        text: scripts.marked(marker),
      }),
      "owner session",
    );
    const id = String(made.id);
    journal.sessions.set(id, { by: "owner", at: Date.now() });
    ownerSessions.push(id);
    record.session = id;
    const messages = (made.messages ?? []) as { id: string; role: string }[];
    record.messageId = messages.find((message) => message.role === "user")?.id ?? null;
  }
  const soak: Soak = { ...base, agents, watchers, ownerSessions, taskHosts, tokens: new Map() };
  await Promise.all(
    agents.map(async (agent) => {
      for (let i = 0; i < CAST.targetsPerAgent; i++) {
        const { session, failure } = await createTarget(soak, agent);
        if (session === null) {
          throw new Error(`agent ${agent.id}'s create_session failed: ${failure}`);
        }
      }
    }),
  );
  const busy = [...ownerSessions, ...agents.flatMap((agent) => agent.targets)];
  for (const watcher of watchers) {
    for (let i = 0; i < busy.length; i += SESSIONS_PER_SUBSCRIPTION) {
      if (!(await subscribe(soak, watcher, busy.slice(i, i + SESSIONS_PER_SUBSCRIPTION)))) {
        throw new Error(`watcher ${watcher.id} could not subscribe`);
      }
    }
  }
  return soak;
}
