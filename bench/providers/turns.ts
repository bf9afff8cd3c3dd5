// One turn's timing from the client's side, split where the model is asked: the fake Messages API
// answers at once (its whole stream is written as the request arrives), so the time the turn's
// first message request reaches it divides the turn into the way to the model and the way back.
import { performance } from "node:perf_hooks";
import type { FakeAnthropic, RecordedRequest } from "@oar/providers/testing";

export interface TurnTiming {
  readonly totalMs: number;
  /** From the client's call to the turn's first model request. */
  readonly toModelMs: number;
  /** From that request (answered at once) to the client holding the reply. */
  readonly afterModelMs: number;
}

const isMessageRequest = (request: RecordedRequest) =>
  request.method === "POST" && request.path.split("?")[0] === "/v1/messages";

/** Runs one turn (`run` resolves once the client has its reply) and times it. */
export async function timeTurn(fake: FakeAnthropic, run: () => Promise<void>): Promise<TurnTiming> {
  const before = new Set(fake.requests);
  const asked = fake
    .waitFor((request) => isMessageRequest(request) && !before.has(request))
    .then(() => performance.now());
  const t0 = performance.now();
  await run();
  const t1 = performance.now();
  const atModel = await Promise.race([asked, Promise.resolve(Number.NaN)]);
  if (Number.isNaN(atModel)) {
    throw new Error("a turn ended without asking the model");
  }
  return { totalMs: t1 - t0, toModelMs: atModel - t0, afterModelMs: t1 - atModel };
}

export interface Spread {
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { count: sorted.length, p50: at(0.5), p90: at(0.9) };
}

/** A turn that asks no model (the `script` provider's): its total only. */
export async function timePlainTurn(run: () => Promise<void>): Promise<TurnTiming> {
  const t0 = performance.now();
  await run();
  return { totalMs: performance.now() - t0, toModelMs: Number.NaN, afterModelMs: Number.NaN };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
}

/** A warm target's round: its turns' spread, and the p50 of each half. */
export interface RoundFigures {
  readonly total: Spread;
  readonly toModelP50: number;
  readonly afterModelP50: number;
}

export function roundFigures(turns: readonly TurnTiming[]): RoundFigures {
  return {
    total: spreadOf(turns.map((turn) => turn.totalMs)),
    toModelP50: spreadOf(turns.map((turn) => turn.toModelMs)).p50,
    afterModelP50: spreadOf(turns.map((turn) => turn.afterModelMs)).p50,
  };
}
