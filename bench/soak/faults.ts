import { setTimeout as sleep } from "node:timers/promises";
import { seededRandom } from "@oar/core/testing";
import type { BenchDatabase } from "../lib/bench-database";
import type { ClusterMember, RelayCluster } from "../lib/relay-cluster";

export type FaultKind = "kill" | "cut" | "freeze";

export interface PlannedFault {
  /** ms after the load's start. */
  readonly at: number;
  readonly kind: FaultKind;
}

export interface FaultRecord {
  readonly kind: FaultKind;
  readonly member: string;
  readonly at: number;
  /** When it was over: the link restored, or the killed process listening again. */
  end: number | null;
  /** A kill: the pid killed, its runner lease (whose turns it ran), when it was started again. */
  pid?: number;
  lease?: string | null;
  restartedAt?: number;
  /** A restart that failed, with why. */
  failure?: string;
}

/** Every ~40 s a kill, a cut of a database link and a frozen balancer link, in turn: one every ~13 s. */
const SPACING_MS = 13_333;
const JITTER_MS = 3_000;
const FIRST_MS = 20_000;
/** No fault starts this close to the load's end: the cluster is whole when the quiet period begins. */
const LAST_MS = 15_000;
export const KILL_DOWN_MS = 5_000;
export const CUT_MS = 5_000;
export const FREEZE_MS = 8_000;
const ROTATION: readonly FaultKind[] = ["kill", "cut", "freeze"];

/** The seeded plan: when each fault comes and of which kind (its target is drawn when it comes). */
export function planFaults(seed: number, loadMs: number): PlannedFault[] {
  const random = seededRandom(seed * 7919 + 1);
  const plan: PlannedFault[] = [];
  for (let i = 0; ; i++) {
    const at = FIRST_MS + i * SPACING_MS + random.int(-JITTER_MS, JITTER_MS);
    if (at > loadMs - LAST_MS) {
      return plan;
    }
    plan.push({ at, kind: ROTATION[i % ROTATION.length] ?? "kill" });
  }
}

async function runnerLeaseOf(db: BenchDatabase, pid: number): Promise<string | null> {
  const [row] = await db.query<{ name: string }>(
    "select name from leases where pid = $1 and name like 'runner:%' order by expires_at desc limit 1",
    [pid],
  );
  return row?.name ?? null;
}

/** Starts a killed member again, a few times if it fails; the record says when, or why not. */
async function restart(member: ClusterMember, record: FaultRecord): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    record.restartedAt = Date.now();
    try {
      const instance = await member.start();
      record.end = instance.listeningAt;
      return;
    } catch (error) {
      if (attempt >= 3) {
        record.failure = `${member.name} did not start again: ${(error as Error).message}`;
        return;
      }
      await sleep(2_000);
    }
  }
}

/**
 * Runs the plan against the cluster from `loadStart`. Each fault goes to a member not under
 * another fault, drawn with the plan's seed; kills spare `spared` (one process lives the whole
 * run, so its memory has a slope worth reading). Resolves once the last fault is over.
 */
export async function runFaults(options: {
  readonly plan: readonly PlannedFault[];
  readonly cluster: RelayCluster;
  readonly db: BenchDatabase;
  readonly loadStart: number;
  readonly seed: number;
  readonly spared: ReadonlySet<number>;
  readonly records: FaultRecord[];
  readonly log: (line: string) => void;
}): Promise<void> {
  const random = seededRandom(options.seed * 104_729 + 3);
  const busy = new Set<number>();
  const running: Promise<void>[] = [];
  for (const fault of options.plan) {
    const wait = options.loadStart + fault.at - Date.now();
    if (wait > 0) {
      await sleep(wait);
    }
    const eligible = options.cluster.members.filter(
      (member) => !busy.has(member.index) && (fault.kind !== "kill" || !options.spared.has(member.index)),
    );
    if (eligible.length === 0) {
      continue;
    }
    const member = random.pick(eligible);
    busy.add(member.index);
    const record: FaultRecord = { kind: fault.kind, member: member.name, at: Date.now(), end: null };
    options.records.push(record);
    running.push(
      (async () => {
        try {
          if (fault.kind === "kill") {
            const pid = member.pid();
            record.lease = pid === undefined ? null : await runnerLeaseOf(options.db, pid);
            record.pid = member.kill();
            options.log(`kill -9 ${member.name} (pid ${record.pid})`);
            await sleep(KILL_DOWN_MS);
            await restart(member, record);
          } else if (fault.kind === "cut") {
            await member.databaseLink.cut();
            options.log(`database link of ${member.name} cut`);
            await sleep(CUT_MS);
            await member.databaseLink.restore();
            record.end = Date.now();
          } else {
            member.balancerLink.freeze();
            options.log(`balancer's link to ${member.name} frozen`);
            await sleep(FREEZE_MS);
            await member.balancerLink.restore();
            record.end = Date.now();
          }
        } finally {
          busy.delete(member.index);
        }
      })(),
    );
  }
  await Promise.all(running);
}
