import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";

/** How long a group gets between SIGTERM and SIGKILL, and again to be gone after SIGKILL. */
export const DEFAULT_KILL_GRACE_MS = 2_000;

const POLL_MS = 25;

/**
 * Whether any process of the group led by `pgid` still runs. A member that exited but is not yet
 * reaped by its new parent (a zombie left to an init that reaps slowly) does not count on Linux,
 * where /proc tells; elsewhere it counts until it is reaped, so callers bound their waits.
 */
export function processGroupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return process.platform !== "linux" || hasLiveMember(pgid);
}

/** Linux: whether /proc shows a member of the group that is not a zombie. */
function hasLiveMember(pgid: number): boolean {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return true;
  }
  return names.some((name) => {
    if (!/^\d+$/.test(name)) {
      return false;
    }
    try {
      // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so read after the last ")".
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return Number(pgrp) === pgid && state !== "Z";
    } catch {
      return false;
    }
  });
}

function signalProcessGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group ended between the check and the signal.
  }
}

/**
 * Polls until the group is gone, for at most `ms` of real time: these waits bound how long a
 * stop takes, not when a turn ends, so they do not go through the relay's clock. The timers are
 * unref'd; while the group's processes run, their pipes keep the event loop alive.
 */
async function waitUntilGone(pgid: number, ms: number): Promise<boolean> {
  for (let waited = 0; processGroupExists(pgid); waited += POLL_MS) {
    if (waited >= ms) {
      return false;
    }
    await delay(POLL_MS, undefined, { ref: false });
  }
  return true;
}

/**
 * Ends every process of the group led by `pgid` — the command and whatever it started in the
 * background: SIGTERM, then SIGKILL to what is left after `graceMs`. Resolves once the group is
 * gone, or `graceMs` after SIGKILL (a process stuck in the kernel is not waited on forever).
 */
export async function killProcessGroup(pgid: number, graceMs = DEFAULT_KILL_GRACE_MS): Promise<void> {
  if (!processGroupExists(pgid)) {
    return;
  }
  signalProcessGroup(pgid, "SIGTERM");
  if (await waitUntilGone(pgid, graceMs)) {
    return;
  }
  signalProcessGroup(pgid, "SIGKILL");
  await waitUntilGone(pgid, graceMs);
}
