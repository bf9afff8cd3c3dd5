import { type Check, CheckBuilder, iso, type LedgerInput, SCHEDULE_PREFIX } from "./ledger-check";

/** Every change a call acknowledged is in the database. */
export function acknowledged(input: LedgerInput): Check {
  const { journal, rows } = input;
  const check = new CheckBuilder("acknowledged", "every acknowledged change is present");
  for (const [id, made] of journal.sessions) {
    check.count("sessions");
    const row = rows.sessions.get(id);
    if (row === undefined) {
      check.fail(`session ${id}, created by the ${made.by} at ${iso(made.at)}, is not in the database`);
    } else if (row.archivedAt !== null) {
      check.fail(`session ${id}, created by the ${made.by}, was archived by nobody's call`);
    }
  }
  for (const prompt of journal.prompts) {
    if (prompt.messageId === null) {
      continue;
    }
    check.count("prompts");
    if (!rows.messageIds.has(prompt.messageId)) {
      check.fail(
        `prompt ${prompt.marker} (message ${prompt.messageId}, session ${prompt.session}) is not in the database`,
      );
    }
  }
  for (const schedule of journal.schedules) {
    check.count("schedules");
    const row = rows.schedules.get(schedule.id);
    if (row === undefined) {
      check.fail(
        `schedule ${schedule.id} (${schedule.marker}, session ${schedule.session}) is not in the database`,
      );
    } else if (schedule.unscheduledAt !== null) {
      check.count("unschedules");
      if (row.endReason !== "unscheduled") {
        check.fail(
          `schedule ${schedule.id}: unschedule acknowledged at ${iso(schedule.unscheduledAt)}, yet its end is ${row.endReason ?? "none"}`,
        );
      }
    }
  }
  for (const subscription of journal.subscriptions) {
    check.count("subscriptions");
    const row = rows.subscriptions.get(subscription.id);
    if (row === undefined) {
      check.fail(`subscription ${subscription.id} of watcher ${subscription.watcher} is not in the database`);
    } else if (row.endedAt !== null) {
      check.fail(
        `subscription ${subscription.id} of watcher ${subscription.watcher} ended at ${iso(row.endedAt)} with no unsubscribe`,
      );
    }
  }
  for (const answer of journal.answers) {
    check.count("answers");
    const row = rows.questions.get(answer.questionId);
    const recorded = row?.choices?.includes(answer.choice) || row?.answer === answer.choice;
    if (row === undefined) {
      check.fail(`question ${answer.questionId}, answered "${answer.choice}", is not in the database`);
    } else if (row.status !== "answered" || !recorded) {
      check.fail(
        `question ${answer.questionId}: answer "${answer.choice}" acknowledged, the database has ${row.status} ${JSON.stringify(row.choices ?? row.answer)}`,
      );
    }
  }
  for (const card of journal.cards) {
    check.count("cards allowed");
    const status = rows.cards.get(card.id)?.status;
    if (status !== "allowed") {
      check.fail(
        `approval card ${card.id} (${card.kind}): Allow acknowledged, the database has ${status ?? "no card"}`,
      );
    }
  }
  for (const note of journal.ownerNotes) {
    check.count("owner's messages to agents");
    if (!rows.messageIds.has(note.messageId)) {
      check.fail(`the owner's message ${note.messageId} to agent ${note.session} is not in the database`);
    }
  }
  return check.done();
}

/** Each schedule slot fired exactly once: one firing row per slot, one message per firing. */
export function slots(input: LedgerInput): Check {
  const { rows, journal } = input;
  const check = new CheckBuilder("schedule-slots", "each schedule slot fired exactly once");
  const messagesOf = new Map<string, number>();
  for (const prompt of rows.prompts) {
    const id = SCHEDULE_PREFIX.exec(prompt.text)?.[1];
    if (id !== undefined) {
      messagesOf.set(id, (messagesOf.get(id) ?? 0) + 1);
    }
  }
  for (const schedule of journal.schedules) {
    const row = rows.schedules.get(schedule.id);
    if (row === undefined) {
      continue;
    }
    const firings = rows.firings.filter((f) => f.schedule === schedule.id);
    const fired = firings.filter((f) => f.status === "fired");
    const messages = messagesOf.get(schedule.id) ?? 0;
    const held = row.heldSince === null ? "" : ` (held for approval since ${iso(row.heldSince)})`;
    if (row.everyMinutes === null) {
      check.count("one-time schedules");
      if (fired.length !== 1 || messages !== 1) {
        check.fail(
          `one-time schedule ${schedule.id} (session ${schedule.session}, at ${iso(row.at)}): fired ${fired.length} times, ${messages} messages${held}`,
        );
      } else if (row.at !== null && fired[0]?.slot !== row.at) {
        check.fail(
          `one-time schedule ${schedule.id}: fired for slot ${iso(fired[0]?.slot)}, not its ${iso(row.at)}`,
        );
      }
      continue;
    }
    check.count("repeating schedules");
    const every = row.everyMinutes * 60_000;
    const until = (row.endedAt ?? rows.now) - 2_000;
    const due: number[] = [];
    for (let slot = row.anchor; slot <= until; slot += every) {
      due.push(slot);
    }
    check.count("repeating slots due", due.length);
    check.count("repeating slots skipped", firings.filter((f) => f.status === "skipped").length);
    for (const slot of due) {
      const at = firings.filter((f) => f.slot === slot);
      if (at.length !== 1) {
        check.fail(
          `repeating schedule ${schedule.id} (session ${schedule.session}): slot ${iso(slot)} has ${at.length} firings${held}`,
        );
      }
    }
    for (const firing of firings) {
      if ((firing.slot - row.anchor) % every !== 0) {
        check.fail(`repeating schedule ${schedule.id}: a firing for ${iso(firing.slot)}, off its grid`);
      }
    }
    if (messages !== fired.length) {
      check.fail(`repeating schedule ${schedule.id}: ${fired.length} firings, ${messages} messages`);
    }
  }
  return check.done();
}
