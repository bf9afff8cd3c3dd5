import { isTransient } from "./calls";
import { type Check, CheckBuilder, describeTurn, iso, type LedgerInput, memberOfLease } from "./ledger-check";

/** A stop that reaches its task ends it within this long. */
const STOP_REACHES_MS = 5_000;

/** Nothing left running or queued, nothing due left unsent, nothing left pending. */
export function settled(input: LedgerInput): Check {
  const { rows } = input;
  const check = new CheckBuilder("settled", "nothing running or queued after the quiet period");
  for (const turn of rows.turns.values()) {
    if (turn.status === "queued" || turn.status === "running") {
      check.fail(`${describeTurn(input, turn)} is ${turn.status} (started ${iso(turn.startedAt)})`);
    }
  }
  for (const task of rows.tasks.values()) {
    if (task.status === "running") {
      check.fail(
        `task ${task.id} (${task.name}) of session ${task.session} on ${memberOfLease(input, task.runner)} is running, started ${iso(task.startedAt)}`,
      );
    }
  }
  for (const delivery of rows.deliveries) {
    if (delivery.status === "pending" && delivery.due <= rows.now - 5_000) {
      check.fail(
        `delivery of ${delivery.event} to ${delivery.watcher} pending, due ${iso(delivery.due)} (${delivery.reason})`,
      );
    }
  }
  const asked = new Set(input.journal.questions.map((q) => q.id));
  for (const [id, question] of rows.questions) {
    if (asked.has(id) && question.status === "pending") {
      check.fail(`question ${id} of ${question.asker} still pending in the Inbox`);
    }
  }
  for (const [id, card] of rows.cards) {
    if (card.status === "pending") {
      check.fail(`approval card ${id} (${card.kind}) still pending`);
    }
  }
  check.count("turns", rows.turns.size);
  check.count("tasks", rows.tasks.size);
  return check.done();
}

/** No client call was answered REMOTE_RELAY_INTERNAL (a bug, DESIGN GAP-20/21). */
export function noInternal(input: LedgerInput): Check {
  const check = new CheckBuilder("no-internal", "no REMOTE_RELAY_INTERNAL seen by any client call");
  for (const call of input.calls) {
    check.count("calls");
    if (call.code === "REMOTE_RELAY_INTERNAL") {
      check.fail(`${call.what} at ${iso(call.at)} served by ${call.servedBy ?? "?"}: ${call.error ?? ""}`);
    }
  }
  return check.done();
}

/** No process of an agent or a task outlives the run's relays: none carries the run's marker. */
export function nothingLeftBehind(input: LedgerInput): Check {
  const check = new CheckBuilder("left-behind", "no process of an agent or task left behind");
  for (const left of input.leftBehind) {
    check.fail(`pid ${left.pid}: ${left.command}`);
  }
  return check.done();
}

/**
 * When the process running a task was killed this long before a call about the task, the call
 * may legitimately not reach it: the task ends when another process recovers the dead one's lease
 * (its 15 s, a 5 s heartbeat, a margin).
 */
const RECOVERY_MS = 25_000;

/** The kill of `member` a call at `at` falls in the recovery of, if any. */
function killBefore(input: LedgerInput, member: string, at: number) {
  return input.kills.find((kill) => kill.member === member && kill.at <= at && at - kill.at <= RECOVERY_MS);
}

/** Background tasks: read (read_task_output) and stopped through whichever process answered. */
export function tasks(input: LedgerInput): Check {
  const { rows, journal } = input;
  const check = new CheckBuilder("tasks", "background tasks read and stopped through any process");
  // What failed, by path: through the process running the task, or through another one.
  const tally = new Map<string, { failed: number; of: number }>();
  const note = (what: string, failed: boolean) => {
    const entry = tally.get(what) ?? { failed: 0, of: 0 };
    entry.of += 1;
    entry.failed += failed ? 1 : 0;
    tally.set(what, entry);
  };
  for (const task of journal.tasks) {
    const row = rows.tasks.get(task.taskId);
    check.count("tasks");
    if (row === undefined) {
      check.fail(`task ${task.taskId} (${task.marker}) in session ${task.host} is not in the database`);
      continue;
    }
    const ranOn = memberOfLease(input, row.runner);
    const lostEnd = input.lostTaskEnds.has(task.taskId)
      ? "; the relay logged that it could not write this task's end (the database link was cut)"
      : "";
    // The client repeats a read the relay asks it to repeat: the last one is its answer.
    const read = task.reads.at(-1);
    if (read !== undefined) {
      const path = `read_task_output through ${read.servedBy === ranOn ? "its process" : "another process"}`;
      check.count(path);
      const blind = read.ok && read.status === "running" && read.ticks === 0;
      const refused = !read.ok && !isTransient({ status: read.http, code: read.code });
      const excused = blind && killBefore(input, ranOn, read.at) !== undefined;
      if (read.ok || refused) {
        note(path, (refused || blind) && !excused);
      }
      if (excused) {
        check.count("reads while the task's process was down");
      } else if (blind) {
        check.fail(
          `read_task_output of ${task.taskId} (on ${ranOn}) through ${read.servedBy}, ${task.reads.length} tries: running, no output${read.note === null ? "" : ` (${read.note})`}`,
        );
      } else if (refused) {
        check.fail(`read_task_output of ${task.taskId} (on ${ranOn}) through ${read.servedBy}: ${read.code}`);
      }
    }
    if (task.stop !== null) {
      const path = `stop through ${task.stop.servedBy === ranOn ? "its process" : "another process"}`;
      check.count(path);
      // Ended by this stop a few seconds later at most (a group ignoring SIGTERM is killed after
      // 2 s), or, when its process had been killed, once that process's lease is recovered.
      const killed = killBefore(input, ranOn, task.stop.at);
      const deadline = Math.max(task.stop.at + STOP_REACHES_MS, (killed?.at ?? 0) + RECOVERY_MS);
      const reached =
        (row.status === "stopped" || row.status === "failed") &&
        row.endedAt !== null &&
        row.endedAt <= deadline;
      note(path, !reached);
      if (!reached) {
        const alive = input.leftBehind.some((left) => left.command.includes(`${task.marker} tick`));
        const state =
          row.endedAt !== null
            ? `ended ${row.status} only at ${iso(row.endedAt)}`
            : alive
              ? `is still ${row.status}, its process too`
              : `is still ${row.status} in the database, yet its process is gone`;
        check.fail(
          `stop of ${task.taskId} (on ${ranOn}) through ${task.stop.servedBy} at ${iso(task.stop.at)} (stopRequested ${task.stop.stopRequested}): the task ${state}${lostEnd}`,
        );
      }
    }
  }
  for (const [path, { failed, of }] of tally) {
    check.notes.push(`${path}: ${failed} of ${of} failed`);
  }
  return check.done();
}
