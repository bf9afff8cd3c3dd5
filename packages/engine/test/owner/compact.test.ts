import { describe, expect, it } from "vitest";
import { T0 } from "../actions/harness";
import { createWatchingHarness } from "../watching/watching-harness";

const MIN = 60_000;

describe("POST /v1/owner/sessions/:id/compact", () => {
  it("continues the conversation in a new one from a summary; schedules, questions and subscriptions move in one change (R-SCHEND-02, R-WDR-04)", async () => {
    const h = await createWatchingHarness();
    const builder = await h.agentSession({ title: "Builder" });
    await h.prompt(h.caller, "Plan the release.");
    const own = (await h.ok({ action: "schedule", title: "Own", text: "x", every_minutes: 10 })).schedule_id;
    const forOther = (
      await h.ok({ action: "schedule", title: "Other", text: "y", every_minutes: 10, session: builder.id })
    ).schedule_id;
    const intoMe = (
      await h.ok(
        { action: "schedule", title: "In", text: "z", every_minutes: 10, session: h.caller.id },
        builder.id,
      )
    ).schedule_id;
    const question = (await h.ok({ action: "ask", question: "Tag it?" })).question_id;
    const subscription = await h.subscribe({ sessions: [builder.id] });

    const compacted = await h.engine.owner.compactSession(h.caller.id);
    const next = compacted.id;
    expect(compacted.compactedFrom).toBe(h.caller.id);
    expect(compacted.title).toBe("Planner");
    expect((await h.session(h.caller.id)).archivedAt).toBe(T0);

    const schedules = h.stores.schedules;
    expect(await schedules.getSchedule(own as string)).toMatchObject({
      sessionId: next,
      createdBy: next,
      endedAt: null,
    });
    expect(await schedules.getSchedule(forOther as string)).toMatchObject({
      sessionId: builder.id,
      createdBy: next,
    });
    expect(await schedules.getSchedule(intoMe as string)).toMatchObject({
      sessionId: next,
      createdBy: builder.id,
    });
    expect(await h.stores.questions.getInboxQuestion(question as string)).toMatchObject({
      askingSession: next,
      sessionId: next,
      status: "pending",
    });
    expect(await h.stores.subscriptions.getSubscription(subscription)).toMatchObject({
      watcher: next,
      endedAt: null,
    });

    // The old one says where it went; the new one starts from the summary.
    const oldMessages = await h.stores.sessions.listMessages(h.caller.id);
    expect(oldMessages.at(-1)?.text).toContain(`this conversation continues in ${next}`);
    await h.flow();
    const [summary] = await h.stores.sessions.listMessages(next);
    expect(summary?.text).toContain(`this conversation continues ${h.caller.id} "Planner"`);
    expect(summary?.text).toContain("- Plan the release.");
    expect(summary?.text).toContain("Moved here with it: 3 schedules, 1 questions, 1 subscriptions.");
    expect(h.provider.prompts.at(-1)?.sessionId).toBe(next);

    // The moved schedules fire in the new conversation.
    await h.pass(10 * MIN);
    const fired = (await h.stores.sessions.listMessages(next)).filter((m) =>
      m.text.startsWith(`[relay schedule ${own}`),
    );
    expect(fired).toHaveLength(1);
    expect((await h.ok({ action: "list_schedules" }, next)).schedules).toHaveLength(3);
  });

  it("refuses a conversation at work, and an archived one, changing nothing", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession();
    await h.sendHeld(target.id);
    await expect(h.engine.owner.compactSession(target.id)).rejects.toMatchObject({
      code: "REMOTE_RELAY_BUSY",
    });
    expect((await h.session(target.id)).archivedAt).toBeNull();
    h.provider.release();
    await h.flow();
    await h.engine.owner.archiveSession(target.id);
    await expect(h.engine.owner.compactSession(target.id)).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });
  });
});
