import { mkdir } from "node:fs/promises";
import { ensureHaproxy } from "./haproxy";
import { startRelayCluster } from "./relay-cluster";
import { startRelayProcess } from "./relay-process";

/** The relay a bench drives: one process on its own, or N behind a balancer. */
export interface RelayTarget {
  /** Where agents and the owner call: the process itself, or the balancer. */
  readonly base: string;
  /** What the report calls it: "1 relay process", "3 relay processes behind HAProxy". */
  readonly label: string;
  /** The relay processes running now, to read their CPU time. */
  pids(): number[];
  /** Each relay process's own address, to read its /metrics (the balancer's picks one process). */
  metricsBases(): string[];
  stop(): Promise<void>;
}

/**
 * Without `processes`, the relay process a bench has always started (`env` as given). With it,
 * `startRelayCluster`: that many processes on `env.DATABASE_URL`, each with a data directory of
 * its own under `dir`, behind HAProxy, even for 1, so that 1 and N differ only in N.
 */
export async function startRelayTarget(
  env: Readonly<Record<string, string>>,
  options: { readonly processes?: number; readonly dir: string; readonly log?: (line: string) => void },
): Promise<RelayTarget> {
  if (options.processes === undefined) {
    const relay = await startRelayProcess(env);
    return {
      base: relay.base,
      label: "1 relay process",
      pids: () => [relay.pid],
      metricsBases: () => [relay.base],
      stop: () => relay.stop(),
    };
  }
  const databaseUrl = env.DATABASE_URL;
  if (databaseUrl === undefined) {
    throw new Error("--processes needs Postgres: the processes share one database");
  }
  const haproxy = await ensureHaproxy(options.log ?? (() => {}));
  // Each member gets its own data directory and database link from the cluster.
  const { DATABASE_URL: _url, RELAY_DATA_DIR: _data, ...shared } = env;
  await mkdir(options.dir, { recursive: true });
  const cluster = await startRelayCluster({
    processes: options.processes,
    databaseUrl,
    dir: options.dir,
    env: shared,
  });
  const plural = options.processes === 1 ? "process" : "processes";
  return {
    base: cluster.base,
    label: `${options.processes} relay ${plural} behind ${haproxy}`,
    pids: () => cluster.members.flatMap((member) => member.pid() ?? []),
    metricsBases: () => cluster.members.map((member) => `http://127.0.0.1:${member.port}`),
    stop: () => cluster.stop(),
  };
}
