import { AnswerQuestionResultSchema, SendResultSchema } from "@oar/schema";
import { describe, expect, it, vi } from "vitest";
import type { BlockingQuestionRecord } from "../../src/ports/question-store";
import { createHarness, type Harness, refusal, settle } from "./harness";

/** `target` asks a blocking question (the test provider's `ask:`); the caller's send waits until it does. */
async function asking(h: Harness, prompt = "ask: Merge now? | Merge | Wait") {
  const target = await h.ownerSession({ id: "ses_3f9c2a1e0000", title: "Builder" });
  const sent = SendResultSchema.parse(
    await h.ok({ action: "send", relay: "this", session: target.id, text: prompt, wait_seconds: 30 }),
  );
  const questionId = sent.pendingQuestions?.[0]?.question_id ?? "";
  return { target, sent, questionId };
}

async function question(h: Harness, id: string): Promise<BlockingQuestionRecord | null> {
  return h.stores.questions.getBlockingQuestion(id);
}

describe("answer_question (§20)", () => {
  it("GAP-10, R-RSES-02: before the answer, send reports `waiting` with the ask_user card", async () => {
    const h = await createHarness();
    const { sent } = await asking(h);
    expect(sent.status).toBe("waiting");
    expect(sent.pendingQuestions).toEqual([
      {
        question_id: expect.stringMatching(/^q_/),
        kind: "ask_user",
        text: "Merge now?",
        options: ["Merge", "Wait"],
        askedAt: "2026-01-01T00:00:00.000Z",
      },
    ]);
  });

  it("R-ANS-01/06: answers with choices; the asking turn goes on and ends done with the answer", async () => {
    const h = await createHarness();
    const { target, sent, questionId } = await asking(h);
    const result = AnswerQuestionResultSchema.parse(
      await h.ok({ action: "answer_question", relay: "this", question_id: questionId, choices: ["Merge"] }),
    );
    expect(result).toEqual({
      ok: true,
      relay: "desk",
      summary: "answer_question → desk session 3f9c2a1e: answered",
      session: target.id,
      question_id: questionId,
      choices: ["Merge"],
    });
    expect(await question(h, questionId)).toMatchObject({
      status: "answered",
      choices: ["Merge"],
      answer: null,
    });
    const waited = await h.ok({
      action: "wait",
      relay: "this",
      session: target.id,
      message_id: sent.message_id,
    });
    expect(waited).toMatchObject({ status: "done", reply: { text: "answer: Merge" } });
    expect(waited.pendingQuestions).toBeUndefined();
    const read = await h.ok({ action: "read_session", relay: "this", session: target.id });
    expect(read.pendingQuestions ?? []).toEqual([]);
  });

  it("R-ANS-03: answers with a free-text answer", async () => {
    const h = await createHarness();
    const { target, sent, questionId } = await asking(h, "ask: Which branch?");
    const result = await h.ok({
      action: "answer_question",
      relay: "this",
      question_id: questionId,
      answer: "release/2.1",
    });
    expect(result).toMatchObject({ session: target.id, question_id: questionId, answer: "release/2.1" });
    expect(result.choices).toBeUndefined();
    expect(
      await h.ok({ action: "wait", relay: "this", session: target.id, message_id: sent.message_id }),
    ).toMatchObject({ status: "done", reply: { text: "answer: release/2.1" } });
  });

  it("R-ANS-03: takes choices and answer together", async () => {
    const h = await createHarness();
    const { questionId } = await asking(h);
    await h.ok({
      action: "answer_question",
      relay: "this",
      question_id: questionId,
      choices: ["Wait"],
      answer: "Wait for the review",
    });
    expect(await question(h, questionId)).toMatchObject({
      status: "answered",
      choices: ["Wait"],
      answer: "Wait for the review",
    });
  });

  it("R-ANS-03: neither choices nor answer is REMOTE_RELAY_INVALID_INPUT, and nothing is answered", async () => {
    const h = await createHarness();
    const { questionId } = await asking(h);
    expect(
      refusal(await h.call({ action: "answer_question", relay: "this", question_id: questionId })),
    ).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringContaining("needs choices or answer"),
    });
    expect((await question(h, questionId))?.status).toBe("pending");
  });

  it("choices must be among the card's options: REMOTE_RELAY_INVALID_INPUT listing them", async () => {
    const h = await createHarness();
    const { questionId } = await asking(h);
    const refused = refusal(
      await h.call({
        action: "answer_question",
        relay: "this",
        question_id: questionId,
        choices: ["Merge", "Maybe"],
      }),
    );
    expect(refused.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(refused.error).toContain("Merge, Wait");
    expect(refused.error).toContain("not Maybe");
    expect((await question(h, questionId))?.status).toBe("pending");
  });

  it("a card without options takes any choices", async () => {
    const h = await createHarness();
    const { target, sent, questionId } = await asking(h, "ask: Which region?");
    await h.ok({ action: "answer_question", relay: "this", question_id: questionId, choices: ["eu-west"] });
    expect(
      await h.ok({ action: "wait", relay: "this", session: target.id, message_id: sent.message_id }),
    ).toMatchObject({ status: "done", reply: { text: "answer: eu-west" } });
  });

  it("R-ANS-05, R-QANS-06: a non-blocking question is REMOTE_RELAY_FORBIDDEN before any store is read", async () => {
    const h = await createHarness();
    const read = vi.fn(async () => {
      throw new Error("answer_question read the question store");
    });
    h.stores.questions.getBlockingQuestion = read;
    for (const id of ["ask_7d2000000001", "ASK_7d2000000001"]) {
      const refused = refusal(
        await h.call({ action: "answer_question", relay: "this", question_id: id, choices: ["Tonight"] }),
      );
      expect(refused.code).toBe("REMOTE_RELAY_FORBIDDEN");
      expect(refused.error).toContain("non-blocking question, which only the user answers");
    }
    expect(read).not.toHaveBeenCalled();
  });

  it("R-ANS-04: a relay's approval card is REMOTE_RELAY_FORBIDDEN: approval cards are for the user", async () => {
    const h = await createHarness();
    const read = vi.fn(h.stores.questions.getBlockingQuestion);
    h.stores.questions.getBlockingQuestion = read;
    const refused = refusal(
      await h.call({
        action: "answer_question",
        relay: "this",
        question_id: "card_000000000001",
        answer: "allow",
      }),
    );
    expect(refused).toEqual({
      code: "REMOTE_RELAY_FORBIDDEN",
      error: expect.stringContaining("approval card, which is for the user, never for an agent"),
    });
    expect(read).not.toHaveBeenCalled();
  });

  it("R-ANS-04, R-LOCAL-06: the caller's own question is REMOTE_RELAY_FORBIDDEN and stays pending", async () => {
    const h = await createHarness();
    const { target, questionId } = await asking(h);
    const refused = refusal(
      await h.callAs(target.id, {
        action: "answer_question",
        relay: "this",
        question_id: questionId,
        choices: ["Merge"],
      }),
    );
    expect(refused).toEqual({
      code: "REMOTE_RELAY_FORBIDDEN",
      error: expect.stringContaining("never answers its own question"),
    });
    expect((await question(h, questionId))?.status).toBe("pending");
  });

  it("R-ANS-01: an unknown question id is REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createHarness();
    const refused = refusal(
      await h.call({ action: "answer_question", relay: "this", question_id: "q_nope", answer: "yes" }),
    );
    expect(refused.code).toBe("REMOTE_RELAY_NOT_FOUND");
    expect(refused.error).toContain('No question card "q_nope" on relay "desk"');
  });

  it("R-ANS-01: a question already answered (stale) is REMOTE_RELAY_INVALID_INPUT and changes nothing", async () => {
    const h = await createHarness();
    const { target, sent, questionId } = await asking(h);
    await h.engine.owner.answerCard(questionId, { choices: ["Wait"] });
    const refused = refusal(
      await h.call({ action: "answer_question", relay: "this", question_id: questionId, choices: ["Merge"] }),
    );
    expect(refused.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(refused.error).toContain("no longer pending (answered)");
    expect(await question(h, questionId)).toMatchObject({ status: "answered", choices: ["Wait"] });
    expect(
      await h.ok({ action: "wait", relay: "this", session: target.id, message_id: sent.message_id }),
    ).toMatchObject({ status: "done", reply: { text: "answer: Wait" } });
  });

  it("R-ANS-01: a question whose turn was stopped is ended: REMOTE_RELAY_INVALID_INPUT", async () => {
    const h = await createHarness();
    const { target, questionId } = await asking(h);
    await h.ok({ action: "stop", relay: "this", session: target.id });
    await settle();
    expect((await question(h, questionId))?.status).toBe("ended");
    const refused = refusal(
      await h.call({ action: "answer_question", relay: "this", question_id: questionId, choices: ["Merge"] }),
    );
    expect(refused.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(refused.error).toContain("no longer pending (ended)");
  });

  it("R-ANS-01: answered by someone else between the lookup and the answer: refused, the first answer stands", async () => {
    const h = await createHarness();
    const { target, sent, questionId } = await asking(h);
    const { questions } = h.stores;
    const lookUp = questions.getBlockingQuestion.bind(questions);
    questions.getBlockingQuestion = async (id) => {
      const found = await lookUp(id);
      // The owner answers right after this call read the card as pending.
      questions.getBlockingQuestion = lookUp;
      await h.engine.owner.answerCard(id, { answer: "the owner's call" });
      return found;
    };
    const refused = refusal(
      await h.call({ action: "answer_question", relay: "this", question_id: questionId, choices: ["Merge"] }),
    );
    expect(refused).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringContaining("was answered by someone else meanwhile"),
    });
    expect(
      await h.ok({ action: "wait", relay: "this", session: target.id, message_id: sent.message_id }),
    ).toMatchObject({ status: "done", reply: { text: "answer: the owner's call" } });
  });

  it("R-CALL-08: arguments answer_question does not take are listed in ignored", async () => {
    const h = await createHarness();
    const { questionId } = await asking(h);
    const result = await h.ok({
      action: "answer_question",
      relay: "this",
      question_id: questionId,
      choices: ["Merge"],
      session: "ses_3f9c2a1e0000",
    });
    expect(result.ignored).toEqual(["session"]);
  });
});
