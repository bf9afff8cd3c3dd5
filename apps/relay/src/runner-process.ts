import { randomUUID } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
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
export function thisRunnerProcess(instance: string): RunnerProcess | undefined {
  const self = thisHost();
  if (self === undefined) {
    return undefined;
  }
  return { ...self, pid: process.pid, isAlive: pidRuns, instance, reap: reapInstance };
}

/** The variable every process a relay starts carries, naming that relay (RunnerProcess.instance). */
export const RELAY_INSTANCE_VARIABLE = "OAR_RELAY_INSTANCE";

/**
 * A new relay instance's id: one per relay made (not per OS process: tests run several relays
 * in one), never reused, so that reaping a gone one's children never touches a live one's.
 */
export function newRelayInstance(): string {
  return `rpi_${randomUUID().replaceAll("-", "")}`;
}

function thisHost(): { readonly host: string } | undefined {
  let boot: string;
  let pids: string;
  try {
    boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    pids = readlinkSync("/proc/self/ns/pid");
  } catch {
    return undefined;
  }
  return { host: `${hostname()} ${boot} ${pids}` };
}

/**
 * Ends (SIGKILL) every process of this host whose environment names `instance`: what a relay
 * process that is gone left running (its agents' CLIs, tasks, clones), however deep they were
 * started, as long as they kept the variable. Processes of other users cannot be read, and are
 * not this relay's. Returns how many were ended.
 */
export async function reapInstance(instance: string): Promise<number> {
  const mark = `${RELAY_INSTANCE_VARIABLE}=${instance}`;
  const entries = await readdir("/proc").catch(() => [] as string[]);
  let ended = 0;
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) {
      continue;
    }
    const environ = await readFile(`/proc/${pid}/environ`, "latin1").catch(() => "");
    if (!environ.split("\0").includes(mark)) {
      continue;
    }
    try {
      process.kill(pid, "SIGKILL");
      ended += 1;
    } catch {
      // Gone meanwhile.
    }
  }
  return ended;
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
