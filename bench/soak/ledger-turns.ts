import {
  type Check,
  CheckBuilder,
  describeTurn,
  iso,
  type LedgerInput,
  MARKER_IN_PROMPT,
  SCHEDULE_PREFIX,
} from "./ledger-check";
import type { MarkLine, TurnRow } from "./ledger-reads";

/** Each turn ran at most once: one line per execution in the marks file. */
export function atMostOnce(input: LedgerInput): Check {
  const { rows, marks, journal } = input;
  const check = new CheckBuilder("at-most-once", "every turn executed at most once");
  const repeating = new Map(
    journal.schedules.filter((s) => s.everyMinutes !== null).map((s) => [s.marker, s.id] as const),
  );
  const linesOf = new Map<string, MarkLine[]>();
  const linesOfTurn = new Map<string, MarkLine[]>();
  const turnOfMarker = new Map<string, TurnRow>();
  for (const prompt of rows.prompts) {
    const marker = MARKER_IN_PROMPT.exec(prompt.text)?.[1];
    const turn = prompt.turn === null ? undefined : rows.turns.get(prompt.turn);
    if (marker !== undefined && turn !== undefined) {
      turnOfMarker.set(marker, turn);
    }
  }
  for (const line of marks) {
    check.count("lines");
    linesOf.set(line.marker, [...(linesOf.get(line.marker) ?? []), line]);
    const task = rows.tasks.get(line.task);
    if (task === undefined) {
      const turn = turnOfMarker.get(line.marker);
      check.fail(
        `${line.marker}'s task ${line.task} ran (its line is written) but the database has no task ${line.task}${turn === undefined ? "" : `; ${describeTurn(input, turn)} ended ${turn.status}${turn.error === null ? "" : `: ${JSON.stringify(turn.error.slice(0, 160))}`}`}`,
      );
      continue;
    }
    if (task.turn !== null) {
      linesOfTurn.set(task.turn, [...(linesOfTurn.get(task.turn) ?? []), line]);
    }
  }
  for (const [marker, lines] of linesOf) {
    const schedule = repeating.get(marker);
    if (schedule !== undefined) {
      const fired = rows.firings.filter((f) => f.schedule === schedule && f.status === "fired").length;
      if (lines.length > fired) {
        check.fail(
          `repeating schedule ${schedule} (${marker}) fired ${fired} times, its turns wrote ${lines.length} lines`,
        );
      }
    } else if (lines.length > 1) {
      const turns = lines.map((line) => rows.tasks.get(line.task)?.turn ?? "?");
      check.fail(
        `${marker} was executed ${lines.length} times: tasks ${lines.map((l) => l.task).join(", ")}, turns ${turns.join(", ")}`,
      );
    }
  }
  for (const [turnId, lines] of linesOfTurn) {
    if (lines.length > 1) {
      const turn = rows.turns.get(turnId);
      check.fail(
        `${turn === undefined ? `turn ${turnId}` : describeTurn(input, turn)} ran ${lines.length} times (${lines.map((l) => l.task).join(", ")})`,
      );
    }
  }
  for (const prompt of rows.prompts) {
    const marker = MARKER_IN_PROMPT.exec(prompt.text)?.[1];
    const turn = prompt.turn === null ? undefined : rows.turns.get(prompt.turn);
    if (marker === undefined || turn === undefined) {
      continue;
    }
    check.count("marked turns");
    if (turn.status === "done" && (linesOfTurn.get(turn.id) ?? []).length === 0) {
      check.fail(`${describeTurn(input, turn)} (${marker}) ended done without writing its line`);
    }
  }
  return check.done();
}

/** Every acknowledged prompt ended done (its marker in the reply) or error with a reason. */
export function answered(input: LedgerInput): Check {
  const { rows, journal } = input;
  const check = new CheckBuilder(
    "answered",
    "every acknowledged prompt answered or ended error with a reason",
  );
  const turnOfMessage = new Map(rows.prompts.map((p) => [p.id, p.turn] as const));
  const reasons = new Map<string, number>();
  const judge = (turn: TurnRow, marker: string, what: string) => {
    check.count(`${what} ${turn.status}`);
    if (turn.status === "done") {
      if (!(turn.reply ?? "").includes(marker)) {
        check.fail(
          `${describeTurn(input, turn)} (${marker}) ended done with another reply: ${JSON.stringify((turn.reply ?? "").slice(0, 80))}`,
        );
      }
    } else if (turn.status === "error") {
      const reason = (turn.error ?? "").trim();
      if (reason === "") {
        check.fail(`${describeTurn(input, turn)} (${marker}) ended error with no reason`);
      } else if (reason.includes('already runs a task named "mark"')) {
        // Every turn waits for its own `mark` task: one the database still had running when this
        // turn started is a task whose end was not recorded in time.
        const at = turn.startedAt ?? 0;
        const stale = [...rows.tasks.values()].filter(
          (task) =>
            task.session === turn.session &&
            task.name === "mark" &&
            task.startedAt <= at &&
            (task.endedAt === null || task.endedAt >= at),
        );
        const which = stale.map(
          (task) =>
            `${task.id} (${task.endedAt === null ? "still running" : `ended ${task.status} at ${iso(task.endedAt)}`}${input.lostTaskEnds.has(task.id) ? ", its end could not be written" : ""})`,
        );
        check.fail(
          `${describeTurn(input, turn)} (${marker}) was refused its task: "${reason.slice(0, 60)}…", yet every earlier turn there waited for its mark task: ${which.join(", ") || "no stale task found"}`,
        );
      }
      reasons.set(reason.slice(0, 100), (reasons.get(reason.slice(0, 100)) ?? 0) + 1);
    } else if (turn.status === "stopped") {
      check.fail(`${describeTurn(input, turn)} (${marker}) ended stopped, and no call stopped it`);
    } else {
      check.fail(`${describeTurn(input, turn)} (${marker}) is still ${turn.status}`);
    }
  };
  for (const prompt of journal.prompts) {
    if (prompt.messageId === null) {
      check.count("prompts not acknowledged");
      continue;
    }
    const turnId = turnOfMessage.get(prompt.messageId);
    const turn = turnId === null || turnId === undefined ? undefined : rows.turns.get(turnId);
    if (turn === undefined) {
      check.fail(
        `prompt ${prompt.marker} (message ${prompt.messageId}, session ${prompt.session}) has no turn`,
      );
      continue;
    }
    judge(turn, prompt.marker, "acknowledged");
    const told = prompt.told;
    if (told !== null && ["done", "error", "stopped"].includes(told) && told !== turn.status) {
      check.fail(
        `${describeTurn(input, turn)} (${prompt.marker}): a client was told ${told}, the database says ${turn.status}`,
      );
    }
  }
  // The turns schedules started (no client call acknowledged them, the firing did).
  for (const prompt of rows.prompts) {
    const schedule = SCHEDULE_PREFIX.exec(prompt.text)?.[1];
    const marker = MARKER_IN_PROMPT.exec(prompt.text)?.[1];
    const turn = prompt.turn === null ? undefined : rows.turns.get(prompt.turn);
    if (schedule !== undefined && marker !== undefined && turn !== undefined) {
      judge(turn, marker, "scheduled");
    }
  }
  for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) {
    check.notes.push(`${count} × error: ${reason}`);
  }
  return check.done();
}
