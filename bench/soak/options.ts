/** What a soak run is asked for on its command line. */
export interface SoakOptions {
  /** How long the load and its faults last, in ms (before the quiet period). */
  readonly loadMs: number;
  /** The quiet period after the load, before the ledger is read. */
  readonly quietMs: number;
  readonly seed: number;
  readonly processes: number;
  /** The Postgres server the scratch database is made on. */
  readonly adminUrl: string;
  /** Where the ledger's JSON is written. */
  readonly out: string | undefined;
  /** Keep the scratch database and the run's folder afterwards, to look into them. */
  readonly keep: boolean;
  /** No faults: the same load on a cluster left alone, to tell the faults' share of a failure. */
  readonly calm: boolean;
}

export const USAGE = `usage: pnpm bench:soak [--minutes M | --hours H] [--seed S] [--processes N] [--calm] [--keep] [--out FILE] [postgres://admin-url]
  --minutes M     minutes of load and faults (default 10); --hours H for long runs
  --seed S        the seed of the workload's choices and of the fault plan (default 1)
  --processes N   relay processes behind the balancer (default 3, at least 2)
  --calm          no faults (the same load, to compare)
  --keep          keep the scratch database and the run's folder
  --out FILE      where to write the ledger's JSON (default .tmp/soak-ledger.json in the repository)`;

/** A quiet period long enough for an event window (30 s) and a runner lease (15 s) to pass, a minute at most. */
function quietFor(loadMs: number): number {
  return Math.min(60_000, Math.max(40_000, Math.round(loadMs / 3)));
}

export function parseOptions(args: readonly string[]): SoakOptions | string {
  let minutes = 10;
  let seed = 1;
  let processes = 3;
  let out: string | undefined;
  let adminUrl = "postgres://postgres@127.0.0.1:5432/postgres";
  let keep = false;
  let calm = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const value = () => {
      const next = args[++i];
      if (next === undefined) {
        throw new Error(`${arg} needs a value`);
      }
      return next;
    };
    const number = (text: string, min: number) => {
      const n = Number(text);
      if (!Number.isFinite(n) || n < min) {
        throw new Error(`${arg} takes a number ≥ ${min}, not "${text}"`);
      }
      return n;
    };
    try {
      if (arg === "--minutes") {
        minutes = number(value(), 0.5);
      } else if (arg === "--hours") {
        minutes = number(value(), 0.01) * 60;
      } else if (arg === "--seed") {
        seed = Math.floor(number(value(), 0));
      } else if (arg === "--processes") {
        processes = Math.floor(number(value(), 2));
      } else if (arg === "--out") {
        out = value();
      } else if (arg === "--keep") {
        keep = true;
      } else if (arg === "--calm") {
        calm = true;
      } else if (/^postgres(ql)?:\/\//.test(arg)) {
        adminUrl = arg;
      } else {
        return `unknown argument ${arg}`;
      }
    } catch (error) {
      return (error as Error).message;
    }
  }
  const loadMs = Math.round(minutes * 60_000);
  return { loadMs, quietMs: quietFor(loadMs), seed, processes, adminUrl, out, keep, calm };
}
