import { ArchiveResultSchema, StopResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createHarness, refusal } from "./harness";

describe("stop (§21)", () => {
  it("R-STOP-01/02: stops the running turn and says a stop was requested", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    await h.sendHeld(target.id);
    const turn = await h.provider.nextTurn();
    const result = StopResultSchema.parse(await h.ok({ action: "stop", relay: "this", session: target.id }));
    expect(result).toMatchObject({
      session: target.id,
      stopRequested: true,
      summary: expect.stringMatching(/: stop requested$/),
    });
    expect(await turn.outcome).toEqual({ status: "stopped" });
  });

  it("R-STOP-02: stopRequested false when nothing was running", async () => {
    const h = await createHarness();
    const target = await h.ownerSession();
    expect(await h.ok({ action: "stop", relay: "this", session: target.id })).toMatchObject({
      stopRequested: false,
      summary: expect.stringMatching(/: nothing was running$/),
    });
  });

  it("an unknown session is REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createHarness();
    expect(refusal(await h.call({ action: "stop", relay: "this", session: "ses_no" })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
  });
});

describe("archive (§22)", () => {
  it("R-ARC-01/02: archives the session", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    const result = ArchiveResultSchema.parse(
      await h.ok({ action: "archive", relay: "this", session: target.id }),
    );
    expect(result).toMatchObject({
      session: target.id,
      archived: true,
      summary: expect.stringMatching(/: archived$/),
    });
    expect((await h.session(target.id)).archivedAt).toBe(h.clock.now());
    const list = await h.ok({ action: "list_sessions", relay: "this", scope: "archived" });
    expect(list.sessions).toEqual([expect.objectContaining({ id: target.id, archived: true })]);
  });

  it("archiving an archived session says so and changes nothing", async () => {
    const h = await createHarness();
    const target = await h.agentSession();
    await h.ok({ action: "archive", relay: "this", session: target.id });
    const at = (await h.session(target.id)).archivedAt;
    h.clock.advance(1000);
    expect(await h.ok({ action: "archive", relay: "this", session: target.id })).toMatchObject({
      alreadyArchived: true,
    });
    expect((await h.session(target.id)).archivedAt).toBe(at);
  });

  it("an unknown session is REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createHarness();
    expect(refusal(await h.call({ action: "archive", relay: "this", session: "ses_no" })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
  });
});
