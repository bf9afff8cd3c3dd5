import { newSession, newTurn } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import type { Stores } from "../src";
import { postgresDatabase } from "./databases";
import { gate, stillPending, useTwoProcesses } from "./holding";

const T0 = Date.UTC(2026, 0, 1);

// Found by the engine's suites on Postgres: a task ending while its session's turn ended
// deadlocked (one change locked the outbox's head then the session's row, the other the row then
// the head), and the turn ended without its reply. Postgres ends one of two such transactions;
// the stores run it again.
describe.skipIf(!postgresDatabase.available)("two changes of one session at once", () => {
  const { a, b } = useTwoProcesses();

  /** Appends an event (the outbox's head locked till the commit), then `then`. */
  const appendEvent = (stores: Stores, id: string) =>
    stores.events.appendEvent({
      id,
      sessionId: "ses_1",
      event: {
        id,
        kind: "turn_started",
        turn_id: "trn_x",
        at: new Date(T0).toISOString(),
        session: "ses_1",
        title: "S",
      },
      at: T0,
    });

  it("a transaction Postgres ends for a deadlock runs again: two changes locking a session's row and the outbox's head in opposite orders both land", async () => {
    await a().sessions.createSession(newSession("ses_1"));
    const headHeld = gate();
    const rowHeld = gate();
    let runsOfFirst = 0;
    let runsOfSecond = 0;
    // The first locks the head, then (once the second holds the row) the row; the second the
    // other way round: without a second run one of them fails with "deadlock detected".
    const first = a().transaction(async (tx) => {
      runsOfFirst++;
      await appendEvent(tx, `evt_first_${runsOfFirst}`);
      headHeld.open();
      await rowHeld.opened;
      await tx.sessions.updateSession("ses_1", { title: "first" });
    });
    const second = b().transaction(async (tx) => {
      runsOfSecond++;
      await tx.sessions.enqueueTurn(newTurn(`trn_${runsOfSecond}`, "ses_1"));
      await tx.sessions.updateSession("ses_1", { title: "second" });
      rowHeld.open();
      await headHeld.opened;
      await appendEvent(tx, `evt_second_${runsOfSecond}`);
    });
    await Promise.all([first, second]);

    expect(runsOfFirst + runsOfSecond).toBe(3);
    const events = await a().events.listEvents({ after: 0, limit: 10 });
    // What the run Postgres ended wrote is gone; each change is there once.
    expect(events).toHaveLength(2);
    expect((await a().sessions.listActiveTurns()).length).toBe(1);
  });

  it("lockSession holds the row to the transaction's end: another lock waits, then reads what the first wrote; a row pointing at the session does not wait", async () => {
    await a().sessions.createSession(newSession("ses_1", { title: "before" }));
    const locked = gate();
    const release = gate();
    const first = a().transaction(async (tx) => {
      await tx.sessions.lockSession("ses_1");
      await tx.sessions.updateSession("ses_1", { title: "first" });
      locked.open();
      await release.opened;
    });
    await locked.opened;
    // A turn of the session (a foreign key's share lock) is queued meanwhile.
    await b().sessions.enqueueTurn(newTurn("trn_1", "ses_1"));
    const second = b().transaction(async (tx) => {
      await tx.sessions.lockSession("ses_1");
      return (await tx.sessions.getSession("ses_1"))?.title;
    });
    expect(await stillPending(second)).toBe(true);
    release.open();
    await first;
    expect(await second).toBe("first");
    await b().sessions.lockSession("ses_unknown");
  });
});
