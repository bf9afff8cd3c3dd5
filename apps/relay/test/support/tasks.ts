import { readdir, readFile } from "node:fs/promises";
import { type Clock, systemClock } from "@oar/core";

/**
 * The live (not zombie) processes of the process group `pgid`, read from Linux's /proc: a group
 * the relay ended has none left. A zombie is dead already, only not yet reaped by its parent.
 */
export async function liveGroupMembers(pgid: number): Promise<number[]> {
  const members: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    let stat: string;
    try {
      stat = await readFile(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // Gone while the list was read.
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") {
      members.push(Number(entry));
    }
  }
  return members;
}

/** Whether `pid` names a process that is running (a zombie is not). */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

/**
 * The real clock, moved forward on demand: `advance(ms)` makes every reading `ms` later at once
 * (timers keep running in real time). Tests of how old something looks need no sleep.
 */
export function shiftedClock(): { readonly clock: Clock; advance(ms: number): void } {
  let offset = 0;
  return {
    clock: {
      now: () => systemClock.now() + offset,
      setTimeout: (callback, ms) => systemClock.setTimeout(callback, ms),
      clearTimeout: (id) => systemClock.clearTimeout(id),
    },
    advance(ms) {
      offset += ms;
    },
  };
}

/**
 * A build as a shell script: a vitest run of 2,000 coloured lines, a line repeated five times,
 * credentials, and vitest's coloured summary (2 failed, 412 passed, 1 skipped).
 */
export const BUILD_SCRIPT = String.raw`#!/bin/sh
printf '\033[1m\033[46m RUN \033[49m\033[22m \033[36mv4.1.12 \033[39m\033[90m/work/project\033[39m\n'
i=1
while [ "$i" -le 2000 ]; do
  printf ' \033[32m✓\033[39m test/unit-%d.test.ts \033[2m(1 test)\033[22m\033[32m 3\033[2mms\033[22m\033[39m\n' "$i"
  i=$((i + 1))
done
for n in 1 2 3 4 5; do echo "waiting for the coverage report"; done
echo "export GITHUB_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
echo 'curl -H "Authorization: Bearer s3cr3t-upload-token-42" https://ci.example.com/upload'
echo "connecting to postgres://app:hunter2secret@db.internal:5432/app"
echo ""
printf '\033[2m Test Files \033[22m \033[1m\033[31m2 failed\033[39m\033[22m\033[2m | \033[22m\033[1m\033[32m40 passed\033[39m\033[22m\033[90m (42)\033[39m\n'
printf '\033[2m      Tests \033[22m \033[1m\033[31m2 failed\033[39m\033[22m\033[2m | \033[22m\033[1m\033[32m412 passed\033[39m\033[22m\033[2m | \033[22m\033[33m1 skipped\033[39m\033[90m (415)\033[39m\n'
printf '\033[2m   Duration \033[22m 3.21s\n'
`;

/** The last lines of BUILD_SCRIPT's output as read_task_output must give them: plain, folded, masked. */
export const BUILD_TAIL_END = [
  "waiting for the coverage report [×5]",
  "export GITHUB_TOKEN=[masked]",
  'curl -H "Authorization: Bearer [masked]" https://ci.example.com/upload',
  "connecting to postgres://app:[masked]@db.internal:5432/app",
  "",
  " Test Files  2 failed | 40 passed (42)",
  "      Tests  2 failed | 412 passed | 1 skipped (415)",
  "   Duration  3.21s",
];

/** The plain form of the build's test line `n`. */
export const buildLine = (n: number) => ` ✓ test/unit-${n}.test.ts (1 test) 3ms`;

/** A test run that prints its progress (3 passed, 1 failed so far), then runs on in two processes of its group. */
export const PROGRESS_SCRIPT = String.raw`#!/bin/sh
printf '\033[1m\033[46m RUN \033[49m\033[22m \033[36mv4.1.12 \033[39m\033[90m/work/project\033[39m\n'
printf ' \033[32m✓\033[39m test/a.test.ts (1 test) 3ms\n'
printf ' \033[32m✓\033[39m test/b.test.ts (1 test) 3ms\n'
printf ' \033[32m✓\033[39m test/c.test.ts (1 test) 3ms\n'
printf ' \033[31m×\033[39m test/d.test.ts (1 test | 1 failed) 3ms\n'
echo "still running"
sleep 1000 &
sleep 1000
`;
