import { describe, expect, it } from "vitest";
import { T0 } from "../actions/harness";
import { createWatchingHarness } from "../watching/watching-harness";

const MIN = 60_000;

describe("the owner's view of a conversation's schedules and questions", () => {
  it("GET /sessions/:id lists the ⏰ schedules and the questions; Cancel ends a schedule as unscheduled (R-SCHEND-01)", async () => {
    const h = await createWatchingHarness();
    const id = (await h.ok({ action: "schedule", title: "Poll", text: "x", every_minutes: 5 }))
      .schedule_id as string;
    const question = (await h.ok({ action: "ask", question: "Now?" })).question_id;
    const detail = await h.engine.owner.getSession(h.caller.id);
    expect(detail.schedules).toEqual([
      expect.objectContaining({ id, title: "Poll", nextFireAt: new Date(T0 + 5 * MIN).toISOString() }),
    ]);
    expect(detail.inboxQuestions).toEqual([
      expect.objectContaining({ question_id: question, status: "pending" }),
    ]);

    const cancelled = await h.engine.owner.cancelSchedule(id);
    expect(cancelled).toMatchObject({ id, endReason: "unscheduled", nextFireAt: null });
    await h.pass(5 * MIN);
    expect(await h.stores.schedules.listFirings(id)).toEqual([]);
    // Cancelling again changes nothing; an unknown id is not found.
    expect(await h.engine.owner.cancelSchedule(id)).toMatchObject({ endReason: "unscheduled" });
    await expect(h.engine.owner.cancelSchedule("sch_nope")).rejects.toMatchObject({
      code: "REMOTE_RELAY_NOT_FOUND",
    });
  });
});
