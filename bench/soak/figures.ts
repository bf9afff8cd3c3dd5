import { slopePerHour } from "../lib/process-memory";
import type { CallRecord } from "./calls";
import type { FaultRecord } from "./faults";
import type { SendWaitRecord } from "./journal";
import type { Rows } from "./ledger-reads";
import type { InstanceMemory } from "./memory-watch";
import type { TableSize } from "./tables";

export interface Spread {
  readonly count: number;
  readonly p50: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? null };
}

export interface KillRecovery {
  readonly member: string;
  /** Seconds after the load's start. */
  readonly atS: number;
  /** kill → the new process listening (5 s of it down on purpose). */
  readonly listeningMs: number | null;
  /** kill → the first successful call the balancer routed to the new process. */
  readonly firstServedMs: number | null;
  /** Turns the killed process was running, and kill → the last of them ended. */
  readonly turnsRunning: number;
  readonly turnsEndedMs: number | null;
  readonly turnsStillOpen: number;
  readonly failure: string | null;
}

export interface MemorySlope {
  readonly member: string;
  readonly pid: number;
  readonly livedS: number;
  readonly rssFirstMb: number | null;
  readonly rssLastMb: number | null;
  /** MB per hour after the warm-up; null when the process lived too short to fit a line. */
  readonly rssMbPerHour: number | null;
  readonly heapMbPerHour: number | null;
  /**
   * The heap's slope over the second half of the process's time under load: the compiler's code
   * for paths the faults reach keeps growing for tens of minutes, a leak does not level off.
   * Null under LATE_FIT_MIN_MS of load.
   */
  readonly heapLateMbPerHour: number | null;
}

export interface Figures {
  readonly calls: {
    readonly total: number;
    readonly perSecond: number;
    readonly failed: number;
    readonly failedByCode: Readonly<Record<string, number>>;
    readonly byMember: Readonly<Record<string, number>>;
  };
  /**
   * send (or create_session) + wait until the turn ended, in ms, of the turns that do not sleep on
   * purpose: away from faults, and overlapping one.
   */
  readonly sendWait: { readonly calm: Spread; readonly faulted: Spread; readonly gaveUp: number };
  readonly kills: readonly KillRecovery[];
  readonly faults: readonly {
    readonly kind: string;
    readonly member: string;
    readonly atS: number;
    readonly ms: number | null;
  }[];
  readonly memory: readonly MemorySlope[];
  readonly tables: readonly {
    readonly name: string;
    readonly rows: readonly [number, number];
    readonly bytes: readonly [number, number];
  }[];
}

/** A send+wait overlapping a fault, or ending within this long after one is over, counts as faulted. */
const FAULT_SHADOW_MS = 10_000;
/** A process's first minutes are its warm-up: the memory slope is fitted after them. */
const WARM_UP_MS = 120_000;
/** A process under load this long also gets a slope fitted over its second half alone. */
const LATE_FIT_MIN_MS = 20 * 60_000;

const mb = (bytes: number | undefined) => (bytes === undefined ? null : bytes / 1024 / 1024);

export function computeFigures(input: {
  readonly calls: readonly CallRecord[];
  readonly sendWaits: readonly SendWaitRecord[];
  readonly faults: readonly FaultRecord[];
  readonly rows: Rows;
  readonly memory: readonly InstanceMemory[];
  readonly tablesAtStart: ReadonlyMap<string, TableSize>;
  readonly tablesAtEnd: ReadonlyMap<string, TableSize>;
  readonly loadStart: number;
  readonly loadEnd: number;
}): Figures {
  const { calls, faults, rows, loadStart, loadEnd } = input;
  const inLoad = calls.filter((call) => call.at >= loadStart && call.at < loadEnd);
  const failedByCode: Record<string, number> = {};
  const byMember: Record<string, number> = {};
  for (const call of inLoad) {
    if (!call.ok) {
      const code = call.code ?? `HTTP_${call.status}`;
      failedByCode[code] = (failedByCode[code] ?? 0) + 1;
    }
    const member = call.servedBy ?? "none";
    byMember[member] = (byMember[member] ?? 0) + 1;
  }

  const shadows = faults.map((fault) => [fault.at, (fault.end ?? loadEnd) + FAULT_SHADOW_MS] as const);
  const faulted = (start: number, end: number) => shadows.some(([from, to]) => start < to && end > from);
  const ended = input.sendWaits.filter((record) => record.status !== "gave up" && record.sleepMs === 0);
  const sendWait = {
    calm: spread(ended.filter((r) => !faulted(r.start, r.end)).map((r) => r.end - r.start)),
    faulted: spread(ended.filter((r) => faulted(r.start, r.end)).map((r) => r.end - r.start)),
    gaveUp: input.sendWaits.filter((record) => record.status === "gave up").length,
  };

  const kills = faults
    .filter((fault) => fault.kind === "kill")
    .map((fault): KillRecovery => {
      const served = calls.find((call) => call.ok && call.servedBy === fault.member && call.at > fault.at);
      const running = [...rows.turns.values()].filter(
        (turn) =>
          fault.lease !== undefined &&
          fault.lease !== null &&
          turn.lease === fault.lease &&
          (turn.startedAt ?? 0) <= fault.at &&
          (turn.endedAt === null || turn.endedAt >= fault.at),
      );
      const endedAt = running.map((turn) => turn.endedAt).filter((at): at is number => at !== null);
      return {
        member: fault.member,
        atS: (fault.at - loadStart) / 1000,
        listeningMs: fault.end === null ? null : fault.end - fault.at,
        firstServedMs: served === undefined ? null : served.at + served.ms - fault.at,
        turnsRunning: running.length,
        turnsEndedMs: endedAt.length === 0 ? null : Math.max(...endedAt) - fault.at,
        turnsStillOpen: running.length - endedAt.length,
        failure: fault.failure ?? null,
      };
    });

  const memory = input.memory.map((instance): MemorySlope => {
    const end = instance.endedAt ?? instance.rss.at(-1)?.at ?? instance.startedAt;
    // Under load only: once it ends, a process gives memory back, which would read as a fall.
    const underLoad = (sample: { readonly at: number }) => sample.at <= loadEnd;
    const collected = instance.rssLogged.some((sample) => sample.collected === true);
    const rssSlope = slopePerHour(
      (collected ? instance.rssLogged : instance.rss).filter(underLoad),
      WARM_UP_MS,
    );
    const heapUnderLoad = instance.heap.filter(underLoad);
    const heapSlope = slopePerHour(heapUnderLoad, WARM_UP_MS);
    const span = (heapUnderLoad.at(-1)?.at ?? 0) - (heapUnderLoad[0]?.at ?? 0);
    const heapLateSlope = span < LATE_FIT_MIN_MS ? null : slopePerHour(heapUnderLoad, span / 2);
    return {
      member: instance.member,
      pid: instance.pid,
      livedS: (end - instance.startedAt) / 1000,
      rssFirstMb: mb(instance.rss[0]?.bytes),
      rssLastMb: mb(instance.rss.at(-1)?.bytes),
      rssMbPerHour: rssSlope === null ? null : rssSlope / 1024 / 1024,
      heapMbPerHour: heapSlope === null ? null : heapSlope / 1024 / 1024,
      heapLateMbPerHour: heapLateSlope === null ? null : heapLateSlope / 1024 / 1024,
    };
  });

  const names = [...new Set([...input.tablesAtStart.keys(), ...input.tablesAtEnd.keys()])].sort();
  return {
    calls: {
      total: inLoad.length,
      perSecond: inLoad.length / ((loadEnd - loadStart) / 1000),
      failed: inLoad.filter((call) => !call.ok).length,
      failedByCode,
      byMember,
    },
    sendWait,
    kills,
    faults: faults.map((fault) => ({
      kind: fault.kind,
      member: fault.member,
      atS: (fault.at - loadStart) / 1000,
      ms: fault.end === null ? null : fault.end - fault.at,
    })),
    memory,
    tables: names.map((name) => {
      const start = input.tablesAtStart.get(name);
      const end = input.tablesAtEnd.get(name);
      return {
        name,
        rows: [start?.rows ?? 0, end?.rows ?? 0] as const,
        bytes: [start?.bytes ?? 0, end?.bytes ?? 0] as const,
      };
    }),
  };
}
