import { type Check, CheckBuilder, EVENT_LINE, iso, type LedgerInput } from "./ledger-check";

/** Each (watcher, event) its subscriptions ask for delivered exactly once, in the watcher's session. */
export function deliveries(input: LedgerInput): Check {
  const { rows, journal } = input;
  const check = new CheckBuilder("deliveries", "each (watcher, event) delivered exactly once");
  const eventById = new Map(rows.events.map((e) => [e.id, e] as const));
  const deliveryOf = new Map<string, (typeof rows.deliveries)[number]>(
    rows.deliveries.map((d) => [`${d.watcher} ${d.event}`, d]),
  );
  const messagesOf = (session: string) => rows.relayMessages.get(session) ?? [];
  const watchers = new Set(journal.subscriptions.map((s) => s.watcher));
  const required = new Set<string>();
  for (const record of journal.subscriptions) {
    const sub = rows.subscriptions.get(record.id);
    if (sub === undefined) {
      continue;
    }
    for (const event of rows.events) {
      const wanted =
        event.session !== null &&
        sub.sessions.includes(event.session) &&
        (sub.events ?? []).includes(event.kind) &&
        event.at >= sub.createdAt + input.subscriptionGraceMs &&
        (sub.endedAt === null || event.at < sub.endedAt);
      if (wanted) {
        required.add(`${sub.watcher} ${event.id}`);
      }
    }
  }
  for (const pair of required) {
    check.count("pairs required");
    const [watcher = "", eventId = ""] = pair.split(" ");
    const event = eventById.get(eventId);
    const delivery = deliveryOf.get(pair);
    const what = `${event?.kind} ${eventId} of session ${event?.session} (${iso(event?.at)}) to watcher ${watcher}`;
    if (delivery === undefined) {
      check.fail(`${what}: never delivered`);
    } else if (delivery.status === "pending") {
      if (delivery.due <= rows.now - 5_000) {
        check.fail(`${what}: pending, due ${iso(delivery.due)} (${delivery.reason})`);
      } else {
        check.count(`held until later (${delivery.reason})`);
      }
    } else if (delivery.status === "dropped") {
      check.fail(`${what}: dropped`);
    } else if (delivery.message === null || !messagesOf(watcher).some((m) => m.id === delivery.message)) {
      check.fail(
        `${what}: marked sent in message ${delivery.message}, which is not in the watcher's session`,
      );
    }
  }
  // The lines in each watcher's messages against the deliveries sent to it, by session and kind.
  for (const watcher of watchers) {
    const sent = new Map<string, number>();
    for (const delivery of rows.deliveries) {
      const event = eventById.get(delivery.event);
      if (delivery.watcher === watcher && delivery.status === "sent" && event !== undefined) {
        const key = `${event.session} ${event.kind}`;
        sent.set(key, (sent.get(key) ?? 0) + 1);
      }
    }
    const lines = new Map<string, number>();
    const turnEnds = new Map<string, number>();
    for (const message of messagesOf(watcher)) {
      for (const line of message.text.split("\n")) {
        const match = EVENT_LINE.exec(line);
        if (match === null) {
          continue;
        }
        check.count("event lines");
        const key = `${match[1]} ${match[2]}`;
        lines.set(key, (lines.get(key) ?? 0) + 1);
        // A done turn's line holds its reply (a unique marker and task id); errors may read alike.
        if (match[2] === "turn_end" && line.includes("turn_end (done)")) {
          turnEnds.set(line, (turnEnds.get(line) ?? 0) + 1);
        }
      }
    }
    for (const key of new Set([...sent.keys(), ...lines.keys()])) {
      const [session, kind] = key.split(" ");
      const expected = sent.get(key) ?? 0;
      const found = lines.get(key) ?? 0;
      if (found !== expected) {
        check.fail(
          `watcher ${watcher}: ${found} ${kind} lines of session ${session}, ${expected} deliveries sent`,
        );
      }
    }
    for (const [line, count] of turnEnds) {
      if (count > 1) {
        check.fail(`watcher ${watcher} got this line ${count} times: ${line.slice(0, 160)}`);
      }
    }
  }
  // question_answered needs no subscription: the asker gets it once per answer.
  for (const answer of journal.answers) {
    const asker = rows.questions.get(answer.questionId)?.asker;
    if (asker === undefined) {
      continue;
    }
    check.count("answers to deliver");
    const needle = `question_answered (question ${answer.questionId})`;
    const found = messagesOf(asker).filter((m) => m.text.includes(needle)).length;
    if (found !== 1) {
      check.fail(`question_answered of ${answer.questionId} reached its asker ${asker} ${found} times`);
    }
  }
  return check.done();
}

/** The owner's stream, across its reconnections: every outbox event once, none twice, none skipped. */
export function ownerStream(input: LedgerInput): Check {
  const check = new CheckBuilder(
    "owner-stream",
    "the owner's event stream: every event once across reconnections",
  );
  const { seen, connections } = input.events;
  const last = Math.max(0, ...seen.keys());
  check.count("connections", connections.length);
  check.count("events seen", seen.size);
  let missing = 0;
  for (const event of input.rows.events) {
    if (event.seq > last) {
      continue;
    }
    if (!seen.has(event.seq)) {
      missing += 1;
      if (missing <= 50) {
        check.fail(`event ${event.seq} (${event.kind} ${event.id}, ${iso(event.at)}) never came`);
      }
    }
  }
  if (missing > 50) {
    check.fail(`… ${missing - 50} more events never came`);
  }
  for (const [seq, times] of seen) {
    if (times > 1) {
      check.fail(`event ${seq} came ${times} times`);
    }
  }
  const newest = input.rows.events.at(-1)?.seq ?? 0;
  if (newest > last) {
    check.fail(`the stream stopped at event ${last}; the outbox ends at ${newest}`);
  }
  return check.done();
}
