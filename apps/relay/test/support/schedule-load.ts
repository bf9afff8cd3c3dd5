import { expect } from "vitest";
import { ownerOk } from "../process";

const SESSIONS = 5;
const PER_SESSION = 20;
export const SCHEDULED = SESSIONS * PER_SESSION;

const owner = ownerOk;

/** The schedules a load made: their ids, in the sessions they fire in. */
export interface ScheduleLoad {
  readonly sessions: readonly string[];
  readonly ids: readonly string[];
  /** Each schedule's number of messages so far, over every session (read through `base`). */
  fired(base: string): Promise<Map<string, number>>;
}

/**
 * 100 one-time schedules (20 in each of 5 external sessions, the most one conversation may hold)
 * due at instants spread over `spreadMs`, starting `leadMs` after the sessions exist, made through
 * `base`'s agent surface as the sessions' own agents. The schedules are asked for all at once; on
 * a machine so slow that an instant would pass before its call arrives, that schedule is asked for
 * a second later instead (and again if the relay still finds it passed): the load is always made,
 * in much the same order, however slow the machine.
 */
export async function scheduleLoad(
  base: string,
  options: { leadMs: number; spreadMs: number },
): Promise<ScheduleLoad> {
  const agents: { id: string; token: string }[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const { id } = await owner<{ id: string }>(base, "POST", "/v1/owner/sessions", {
      provider: "external",
      title: `Load ${s}`,
    });
    const { token } = await owner<{ token: string }>(base, "POST", `/v1/owner/sessions/${id}/token`);
    agents.push({ id, token });
  }
  const start = Date.now() + options.leadMs;
  const schedule = async (token: string, n: number): Promise<string> => {
    const planned = start + Math.round((n * options.spreadMs) / SCHEDULED);
    for (let attempt = 1; ; attempt++) {
      const at = new Date(Math.max(planned, Date.now() + 1_000)).toISOString();
      const response = await fetch(`${base}/v1/tool`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ action: "schedule", title: `s${n}`, at, text: `firing ${n}` }),
      });
      const result = (await response.json()) as { ok: boolean; schedule_id: string; error?: string };
      if (!result.ok && attempt < 5 && result.error?.includes("has passed")) {
        continue;
      }
      expect(result.ok, JSON.stringify(result)).toBe(true);
      return result.schedule_id;
    }
  };
  const ids = await Promise.all(
    agents.flatMap(({ token }, s) =>
      Array.from({ length: PER_SESSION }, (_, i) => schedule(token, s * PER_SESSION + i)),
    ),
  );
  const sessions = agents.map(({ id }) => id);
  return {
    sessions,
    ids,
    async fired(through) {
      const counts = new Map(ids.map((id) => [id, 0]));
      for (const session of sessions) {
        const view = await owner<{ messages: { text: string }[] }>(
          through,
          "GET",
          `/v1/owner/sessions/${session}`,
        );
        for (const message of view.messages) {
          const id = /^\[relay schedule (sch_\w+) /.exec(message.text)?.[1];
          if (id !== undefined) {
            counts.set(id, (counts.get(id) ?? 0) + 1);
          }
        }
      }
      return counts;
    },
  };
}

/** How many schedules have fired at least once. */
export function firedCount(counts: ReadonlyMap<string, number>): number {
  return [...counts.values()].filter((n) => n > 0).length;
}

/** The schedules fired other than exactly once (none, when the relay kept its promise). */
export function notOnce(counts: ReadonlyMap<string, number>): [string, number][] {
  return [...counts].filter(([, n]) => n !== 1);
}
