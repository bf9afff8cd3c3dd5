import { setTimeout as sleep } from "node:timers/promises";
import { seededRandom } from "@oar/core/testing";
import type { OwnerApi } from "../lib/owner-api";
import type { Plan } from "./plan";

/** One steady stream of prompts: the k-th goes at `k / perSecond` s to `sessions[k % length]`. */
interface Stream {
  readonly perSecond: number;
  readonly seconds: number;
  readonly sessions: readonly string[];
  readonly text: (k: number) => string;
}

export interface DriveResult {
  readonly prompts: number;
  /** How far behind its schedule the latest prompt left (the load generator keeping up). */
  readonly worstSlipMs: number;
}

/** Arrival times in ms after the start: every `1 / perSecond` s from the start, or random gaps at that rate. */
export type Arrivals = "aligned" | "random";

/**
 * When the k-th prompt of a stream goes, in ms after the start. Aligned, the streams share their
 * start and their periods divide each other, so each `!error` goes in the same millisecond as a
 * plain prompt; random, each stream is a Poisson process at its rate (exponential gaps), seeded
 * per stream, its count the aligned one's.
 */
function schedule(stream: Stream, count: number, arrivals: Arrivals, seed: number): number[] {
  if (arrivals === "aligned") {
    return Array.from({ length: count }, (_, k) => (k / stream.perSecond) * 1000);
  }
  const { next } = seededRandom(seed);
  const times: number[] = [];
  let at = 0;
  for (let k = 0; k < count; k++) {
    times.push(at);
    at += (-Math.log(1 - next()) / stream.perSecond) * 1000;
  }
  return times;
}

/**
 * The prompts of the plan, each stream on its own schedule from one start: plain prompts over
 * every watched session, `!error` prompts over the cool ones, and the burst over the hot ones.
 * Every prompt is unique, and so is every event line a watcher reads: a failing turn's turn_end
 * carries its `!reply` (without one it would read the same for every failure). Each prompt is an
 * owner message; the relay queues it behind a turn still running.
 */
export async function drive(
  api: OwnerApi,
  plan: Plan,
  watched: readonly string[],
  arrivals: Arrivals = "aligned",
): Promise<DriveResult> {
  const hot = watched.slice(0, plan.hotSessions);
  const cool = watched.slice(plan.hotSessions);
  const streams: Stream[] = [
    {
      perSecond: plan.promptsPerSecond,
      seconds: plan.loadSeconds,
      sessions: watched,
      text: (k) => `plain ${k}`,
    },
    {
      perSecond: plan.errorsPerSecond,
      seconds: plan.loadSeconds,
      sessions: cool,
      text: (k) => `!reply failure ${k}\n!error failure ${k}`,
    },
    {
      perSecond: plan.burstPerSecond,
      seconds: plan.burstSeconds,
      sessions: hot,
      text: (k) => `!reply burst ${k}\n!error burst ${k}`,
    },
  ];
  const start = performance.now();
  let prompts = 0;
  let worstSlipMs = 0;
  const posted: Promise<unknown>[] = [];
  const run = async (stream: Stream, index: number) => {
    const count = Math.floor(stream.perSecond * stream.seconds);
    const times = schedule(stream, count, arrivals, index + 1);
    for (let k = 0; k < count; k++) {
      const at = start + (times[k] ?? 0);
      const wait = at - performance.now();
      if (wait > 0) {
        await sleep(wait);
      }
      worstSlipMs = Math.max(worstSlipMs, performance.now() - at);
      const session = stream.sessions[k % stream.sessions.length];
      posted.push(api.post(`/v1/owner/sessions/${session}/messages`, { text: stream.text(k) }));
      prompts++;
    }
  };
  await Promise.all(streams.filter((stream) => stream.perSecond > 0).map(run));
  await Promise.all(posted);
  return { prompts, worstSlipMs };
}
