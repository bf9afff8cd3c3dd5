import { setTimeout as delay } from "node:timers/promises";

/** How long a group gets between SIGTERM and SIGKILL, and again to be gone after SIGKILL. */
export const DEFAULT_KILL_GRACE_MS = 2_000;

const POLL_MS = 25;

/**
 * Whether any process of the group led by `pgid` still exists. A member that exited but is not
 * yet reaped by its new parent (init) counts until it is, so callers bound their waits.
 */
export function processGroupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
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
