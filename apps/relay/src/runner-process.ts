import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import type { RunnerProcess } from "@oar/engine";

/**
 * This relay process as its runner lease names it (DESIGN §9), so that a relay started on the
 * same host after a kill -9 ends the dead one's turns at once instead of when its lease expires.
 * `host` names the pid space: the kernel's boot id (no two machines share one, a reboot draws a
 * new one) and the pid namespace (containers on one kernel do not see each other's pids), after
 * the host name for whoever reads the row. Where these cannot be read (not Linux) there is none:
 * a host name alone may be shared by two machines, and a live process's turns must not end.
 */
export function thisRunnerProcess(): RunnerProcess | undefined {
  let boot: string;
  let pids: string;
  try {
    boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    pids = readlinkSync("/proc/self/ns/pid");
  } catch {
    return undefined;
  }
  return { host: `${hostname()} ${boot} ${pids}`, pid: process.pid, isAlive: pidRuns };
}

/**
 * Whether a process with this pid runs. Signal 0 only checks; EPERM means it runs as another user.
 * A pid a new process took again reads as running: its lease is then left to expire.
 */
export function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
