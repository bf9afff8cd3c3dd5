import { readdir, readFile } from "node:fs/promises";

export interface LeftProcess {
  readonly pid: number;
  readonly command: string;
}

/**
 * Processes whose command line carries `marker`, or whose environment carries it and (when
 * `envNames` are given) one of those variables, except `exceptPids`: what a run started through
 * the processes it launched (which hand their environment on) and did not end. `envNames` tells
 * the work a relay starts (a task has OAR_TASK_ID, an agent OAR_SESSION) from its own tooling
 * (tsx's esbuild service). Linux only (/proc); elsewhere the list is empty.
 */
export async function processesCarrying(
  marker: string,
  exceptPids: ReadonlySet<number>,
  envNames: readonly string[] = [],
): Promise<LeftProcess[]> {
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return [];
  }
  const found: LeftProcess[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || exceptPids.has(pid)) {
      continue;
    }
    try {
      const [environ, cmdline] = await Promise.all([
        readFile(`/proc/${pid}/environ`, "latin1"),
        readFile(`/proc/${pid}/cmdline`, "latin1"),
      ]);
      const variables = environ.split("\0");
      const named =
        envNames.length === 0 || envNames.some((name) => variables.some((v) => v.startsWith(`${name}=`)));
      if (cmdline.includes(marker) || (environ.includes(marker) && named)) {
        found.push({ pid, command: cmdline.split("\0").join(" ").trim().slice(0, 200) });
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** kill -9 of each process (and its group, tasks run in their own), ignoring those already gone. */
export function killAll(processes: readonly LeftProcess[]): void {
  for (const { pid } of processes) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // Gone, or not a group leader.
      }
    }
  }
}
