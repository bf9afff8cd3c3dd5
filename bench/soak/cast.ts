import { setTimeout as sleep } from "node:timers/promises";
import type { Random } from "@oar/core/testing";
import type { CallResult, Calls } from "./calls";
import type { Journal } from "./journal";
import type { TurnScripts } from "./turn-script";

/** An agent: an `external` conversation whose agent acts over `/v1/tool` with its token. */
export interface Agent {
  readonly id: string;
  readonly token: string;
  /** The `script` sessions it created with create_session: it prompts them. */
  readonly targets: string[];
}

/** A watcher: an `external` conversation whose agent subscribes to busy sessions. */
export interface Watcher {
  readonly id: string;
  readonly token: string;
  readonly watching: Set<string>;
  subscriptions: number;
}

/** Everyone the workload's lanes share: the clients, what they were told, who plays which part. */
export interface Soak {
  readonly calls: Calls;
  readonly journal: Journal;
  readonly scripts: TurnScripts;
  readonly random: Random;
  /** When the load ends (epoch ms): no lane starts anything after it. */
  readonly loadEnd: number;
  readonly agents: Agent[];
  readonly watchers: Watcher[];
  /** `script` sessions the owner created and prompts. */
  readonly ownerSessions: string[];
  /** `script` sessions whose turns start background tasks. */
  readonly taskHosts: string[];
  /** Agent tokens the owner issued, by session (for sessions that schedule their own turns). */
  readonly tokens: Map<string, string>;
}

export const TERMINAL = new Set(["done", "error", "stopped"]);

/** A lane's pause between two things it does, cut short when the load ends: the run ends on time. */
export function pause(soak: Soak, ms: number): Promise<void> {
  return sleep(Math.max(0, Math.min(ms, soak.loadEnd - Date.now())));
}

export function text(body: Record<string, unknown> | null, key: string): string | null {
  const value = body?.[key];
  return typeof value === "string" ? value : null;
}

/** A result that must be a success (set-up, before any fault): its body, or an error saying why not. */
export function must(result: CallResult, what: string): Record<string, unknown> {
  if (!result.ok || result.body === null) {
    throw new Error(`${what}: ${result.status} ${result.code ?? ""} ${result.error ?? ""}`);
  }
  return result.body;
}

/** Every `script` session the workload prompts: the owner's and the agents' targets. */
export function busySessions(soak: Soak): string[] {
  return [...soak.ownerSessions, ...soak.agents.flatMap((agent) => agent.targets)];
}

/** The session's agent token, issued by the owner once and kept; null when the call failed. */
export async function tokenOf(soak: Soak, session: string): Promise<string | null> {
  const known = soak.tokens.get(session);
  if (known !== undefined) {
    return known;
  }
  const issued = await soak.calls.owner("POST", `/v1/owner/sessions/${session}/token`, {});
  const token = text(issued.body, "token");
  if (issued.ok && token !== null) {
    soak.tokens.set(session, token);
  }
  return token;
}
