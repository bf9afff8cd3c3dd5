import { readFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";

/** CPU seconds a process has used (user + system) per /proc, at 100 ticks a second; null without /proc. */
export async function cpuSeconds(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // After the command's closing ")", utime and stime (stat fields 14 and 15) are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** How busy the relay process(es) and the machine were over a span of the run. */
export interface Busy {
  /** The relay processes' CPU use together, as a share of one core; null without /proc. */
  readonly relayCore: number | null;
  /** The 1-minute load average at the start and at the end, and the cores there are. */
  readonly load: readonly [number, number];
  readonly cores: number;
}

/** CPU seconds of every process, summed; null if one cannot be read. */
async function totalCpuSeconds(pids: readonly number[]): Promise<number | null> {
  const each = await Promise.all(pids.map(cpuSeconds));
  return each.some((seconds) => seconds === null)
    ? null
    : each.reduce<number>((sum, seconds) => sum + (seconds ?? 0), 0);
}

export async function measureBusy(pids: readonly number[]): Promise<{ end(): Promise<Busy> }> {
  const startCpu = await totalCpuSeconds(pids);
  const startAt = performance.now();
  const startLoad = loadavg()[0] ?? Number.NaN;
  return {
    async end() {
      const endCpu = await totalCpuSeconds(pids);
      const seconds = (performance.now() - startAt) / 1000;
      return {
        relayCore: startCpu === null || endCpu === null ? null : (endCpu - startCpu) / seconds,
        load: [startLoad, loadavg()[0] ?? Number.NaN],
        cores: availableParallelism(),
      };
    },
  };
}
