import { LIMITS } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { refusal, T0 } from "../actions/harness";
import { createWatchingHarness, type WatchingHarness } from "../watching/watching-harness";

const DAY = 86_400_000;

async function asked(h: WatchingHarness, input: Record<string, unknown> = {}, as?: string) {
  const result = await h.ok({ action: "ask", question: "Ship tonight or wait?", ...input }, as);
  expect(result.status).toBe("pending");
  return result.question_id as string;
}

async function answeredEvents(h: WatchingHarness, sessionId: string) {
  return (await h.eventMessages(sessionId)).filter((m) => m.text.includes("question_answered"));
}

describe("ask (§34.1) and the owner's Inbox", () => {
  it("R-ASK-02/03: returns at once, pending; the Inbox shows it; the answer wakes the asker with no subscription", async () => {
    const h = await createWatchingHarness();
    const result = await h.ok({
      action: "ask",
      question: "Ship the migration tonight or wait for the review?",
      options: ["Tonight", "Wait"],
      recommendation: "Wait",
      detail: "The review covers the index change; the rest is tested.",
    });
    const id = result.question_id as string;
    expect(id).toMatch(/^ask_/);
    expect(result.summary).toBe(`ask → desk: question ${id} pending`);
    const [item] = await h.engine.owner.listInbox();
    expect(item).toMatchObject({
      question_id: id,
      session: { id: h.caller.id, title: "Planner" },
      askedBy: { id: h.caller.id, title: "Planner", relay: null },
      question: "Ship the migration tonight or wait for the review?",
      options: ["Tonight", "Wait"],
      recommendation: "Wait",
      status: "pending",
    });
    // R-QLIM-02: no expiry, three days later (a jump: the pollers' timers fire once, not each poll).
    await h.clock.jumpAsync(3 * DAY);
    expect(await h.engine.owner.listInbox()).toHaveLength(1);
    const answered = await h.engine.owner.answerInbox(id, { choice: "Wait" });
    expect(answered).toMatchObject({ status: "answered", choice: "Wait", via: "desk" });
    await h.flow();
    const [woken] = await answeredEvents(h, h.caller.id);
    expect(woken?.text).toContain(`question_answered (question ${id}) choice "Wait"`);
    expect(await h.engine.owner.listInbox()).toEqual([]);
    expect(await h.engine.owner.listInbox({ closed: true })).toHaveLength(1);
    const listedNow = await h.ok({ action: "list_questions" });
    expect(listedNow.questions).toEqual([
      expect.objectContaining({ question_id: id, status: "answered", choice: "Wait", answer: null }),
    ]);
  });

  it("R-QANS-01: a free answer, and a dismissal, reach the asker; a choice off the options is refused", async () => {
    const h = await createWatchingHarness();
    const free = await asked(h);
    const offered = await asked(h, { question: "Which branch?", options: ["main", "next"] });
    await expect(h.engine.owner.answerInbox(offered, { choice: "dev" })).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });
    await expect(h.engine.owner.answerInbox(free, { choice: "x" })).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });
    await h.engine.owner.answerInbox(free, { answer: "Wait for Anna's review." });
    await h.engine.owner.answerInbox(offered, { dismiss: true });
    await expect(h.engine.owner.answerInbox(offered, { answer: "late" })).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });
    await h.flow();
    const texts = (await answeredEvents(h, h.caller.id)).map((m) => m.text).join("\n");
    expect(texts).toContain(`(question ${free}) answer "Wait for Anna's review."`);
    expect(texts).toContain(`(question ${offered}) dismissed`);
    const statuses = ((await h.ok({ action: "list_questions" })).questions as { status: string }[]).map(
      (q) => q.status,
    );
    expect(statuses).toEqual(["answered", "dismissed"]);
  });

  it("R-QANS-05: an answer does not reset the anti-loop count; R-ANS-05: answer_question refuses it", async () => {
    const h = await createWatchingHarness();
    const id = await asked(h);
    await h.stores.loopCounters.incrementLoopCounter(h.caller.id);
    await h.engine.owner.answerInbox(id, { answer: "yes" });
    await h.flow();
    expect(await h.stores.loopCounters.getLoopCounter(h.caller.id)).toBe(1);
    const other = await h.ownerSession();
    const forbidden = await h.callAs(other.id, {
      action: "answer_question",
      relay: "this",
      question_id: id,
      answer: "x",
    });
    expect(refusal(forbidden).code).toBe("REMOTE_RELAY_FORBIDDEN");
  });

  it("R-ASK-04: the same question still pending is that question, not a new one", async () => {
    const h = await createWatchingHarness();
    const first = await asked(h);
    const again = await h.ok({ action: "ask", question: "Ship tonight or wait?" });
    expect(again.question_id).toBe(first);
    expect(String(again.note)).toMatch(/already pending/);
    expect(await h.engine.owner.listInbox()).toHaveLength(1);
  });

  it("R-QCHK-04: asked about another session, both that session and the asker get the answer", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    const id = await asked(h, { session: target.id });
    const [item] = await h.engine.owner.listInbox();
    expect(item).toMatchObject({
      session: { id: target.id, title: "Builder" },
      askedBy: { id: h.caller.id },
    });
    await h.engine.owner.answerInbox(id, { answer: "go" });
    await h.flow();
    expect(await answeredEvents(h, h.caller.id)).toHaveLength(1);
    expect(await answeredEvents(h, target.id)).toHaveLength(1);
    // The session concerned lists it too (R-LQ-02).
    const about = await h.ok({ action: "list_questions", session: target.id });
    expect((about.questions as { question_id: string }[]).map((q) => q.question_id)).toEqual([id]);
  });

  it("a watcher subscribed to the asker's session with question_answered is not woken twice", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    await h.subscribe({ sessions: [target.id], events: ["question_answered", "question_asked"] });
    const id = await asked(h, { session: target.id });
    await h.flow();
    await h.engine.owner.answerInbox(id, { answer: "go" });
    await h.flow();
    await h.pass(60_000);
    expect(await answeredEvents(h, h.caller.id)).toHaveLength(1);
  });
});

describe("withdraw (§34.6) and the ends of a question", () => {
  it("R-WDR-01/02: only the asker withdraws, only while pending; nobody is told", async () => {
    const h = await createWatchingHarness();
    const other = await h.ownerSession({ title: "Other" });
    const id = await asked(h);
    const notMine = await h.callAs(other.id, { action: "withdraw", question_id: id });
    expect(refusal(notMine).code).toBe("REMOTE_RELAY_PERMISSION");
    const unknown = await h.call({ action: "withdraw", question_id: "ask_nope" });
    expect(refusal(unknown).code).toBe("REMOTE_RELAY_NOT_FOUND");
    const done = await h.ok({ action: "withdraw", question_id: id });
    expect(done).toMatchObject({ question_id: id, status: "withdrawn" });
    expect(await h.engine.owner.listInbox()).toEqual([]);
    const twice = await h.call({ action: "withdraw", question_id: id });
    expect(refusal(twice).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    await h.flow();
    expect(await answeredEvents(h, h.caller.id)).toEqual([]);
  });

  it("R-WDR-03: archiving the session ends its questions silently; R-LQ-01: closed ones are listed for a day", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    const id = await asked(h, { session: target.id });
    await h.engine.owner.archiveSession(target.id);
    expect(await h.engine.owner.listInbox()).toEqual([]);
    await h.flow();
    expect(await answeredEvents(h, h.caller.id)).toEqual([]);
    const [entry] = (await h.ok({ action: "list_questions" })).questions as Record<string, unknown>[];
    expect(entry).toMatchObject({ question_id: id, status: "ended", closedAt: new Date(T0).toISOString() });
    await h.clock.jumpAsync(DAY);
    expect((await h.ok({ action: "list_questions" })).questions).toHaveLength(1);
    await h.clock.advanceAsync(1);
    expect((await h.ok({ action: "list_questions" })).questions).toEqual([]);
  });
});

describe("R-QLIM-01: 20 pending per asking conversation and per session concerned", () => {
  it("the asker's 21st is refused and nothing is asked; an answer frees a place", async () => {
    const h = await createWatchingHarness();
    const ids: string[] = [];
    for (let i = 0; i < LIMITS.pendingQuestionsPerConversation; i++) {
      ids.push(await asked(h, { question: `Question ${i}?` }));
    }
    const over = await h.call({ action: "ask", question: "One more?" });
    expect(refusal(over).code).toBe("REMOTE_RELAY_QUESTION_LIMIT");
    expect(await h.engine.owner.listInbox()).toHaveLength(20);
    await h.engine.owner.answerInbox(ids[0] as string, { answer: "ok" });
    await asked(h, { question: "One more?" });
  });

  it("a session concerned by 20 pending questions of several askers refuses the 21st", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    const second = await h.ownerSession({ title: "Second" });
    for (let i = 0; i < LIMITS.pendingQuestionsPerConversation; i++) {
      await asked(
        h,
        { question: `About builder ${i}?`, session: target.id },
        i % 2 === 0 ? h.caller.id : second.id,
      );
    }
    const over = await h.callAs(second.id, { action: "ask", question: "Once more?", session: target.id });
    expect(refusal(over).code).toBe("REMOTE_RELAY_QUESTION_LIMIT");
    expect(String(refusal(over).error)).toContain(target.id);
  });
});

describe("R-LQ-04: read_session lists a session's pending questions", () => {
  it("the non-blocking ones about it, with their kind, next to its blocking cards", async () => {
    const h = await createWatchingHarness();
    const target = await h.agentSession({ title: "Builder" });
    const id = await asked(h, { session: target.id, options: ["a", "b"], recommendation: "a" });
    const read = await h.ok({ action: "read_session", relay: "this", session: target.id });
    expect(read.pendingQuestions).toEqual([
      {
        question_id: id,
        kind: "ask",
        text: "Ship tonight or wait?",
        options: ["a", "b"],
        recommendation: "a",
        askedAt: new Date(T0).toISOString(),
      },
    ]);
    await h.engine.owner.answerInbox(id, { choice: "a" });
    expect(
      (await h.ok({ action: "read_session", relay: "this", session: target.id })).pendingQuestions,
    ).toEqual([]);
  });
});
