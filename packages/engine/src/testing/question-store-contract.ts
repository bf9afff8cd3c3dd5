import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { NewBlockingQuestion, QuestionStore } from "../ports/question-store";
import type { SessionStore } from "../ports/session-store";
import { newSession, newTurn } from "./fixtures";

/** A QuestionStore fixture; `sessions` is the SessionStore of the same database, for the rows questions refer to. */
export interface QuestionStoreFixture extends ContractFixture<QuestionStore> {
  readonly sessions: SessionStore;
}

function newQuestion(id: string, overrides: Partial<NewBlockingQuestion> = {}): NewBlockingQuestion {
  return {
    id,
    sessionId: "ses_1",
    turnId: "trn_1",
    text: `Question ${id}?`,
    options: ["Yes", "No"],
    createdAt: T0,
    ...overrides,
  };
}

/** The behaviour every QuestionStore must have: blocking question cards (`ask_user`, R-RSES-02). */
export function runQuestionStoreContract(setup: ContractSetup<QuestionStoreFixture>): void {
  describe("QuestionStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;

    const seed = async () => {
      const sessions = fixture().sessions;
      await sessions.createSession(newSession("ses_1"));
      await sessions.createSession(newSession("ses_2"));
      await sessions.enqueueTurn(newTurn("trn_1", "ses_1"));
      await sessions.enqueueTurn(newTurn("trn_2", "ses_1"));
      await sessions.enqueueTurn(newTurn("trn_3", "ses_2"));
    };

    it("creates a pending question and reads it back", async () => {
      await seed();
      const created = await store().createBlockingQuestion(
        newQuestion("q_1", { text: "Deploy to production?", options: ["Deploy", "Wait"], createdAt: T0 + 5 }),
      );
      expect(created).toEqual({
        id: "q_1",
        sessionId: "ses_1",
        turnId: "trn_1",
        text: "Deploy to production?",
        options: ["Deploy", "Wait"],
        status: "pending",
        answer: null,
        choices: null,
        createdAt: T0 + 5,
        answeredAt: null,
      });
      expect(await store().getBlockingQuestion("q_1")).toEqual(created);
      expect(await store().getBlockingQuestion("q_missing")).toBeNull();
    });

    it("keeps a question without options", async () => {
      await seed();
      await store().createBlockingQuestion(newQuestion("q_1", { options: [] }));
      expect(await store().getBlockingQuestion("q_1")).toMatchObject({ options: [], status: "pending" });
    });

    it("lists by session and status, oldest first", async () => {
      await seed();
      await store().createBlockingQuestion(newQuestion("q_b", { createdAt: T0 + 1 }));
      await store().createBlockingQuestion(newQuestion("q_a", { createdAt: T0 + 1 }));
      await store().createBlockingQuestion(newQuestion("q_other", { sessionId: "ses_2", turnId: "trn_3" }));
      await store().answerBlockingQuestion({ id: "q_b", answer: { answer: "Yes" }, at: T0 + 2 });

      const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);
      expect(ids(await store().listBlockingQuestions({}))).toEqual(["q_b", "q_a", "q_other"]);
      expect(ids(await store().listBlockingQuestions({ sessionId: "ses_1" }))).toEqual(["q_b", "q_a"]);
      expect(ids(await store().listBlockingQuestions({ sessionId: "ses_1", status: "pending" }))).toEqual([
        "q_a",
      ]);
      expect(ids(await store().listBlockingQuestions({ status: "answered" }))).toEqual(["q_b"]);
      expect(await store().listBlockingQuestions({ sessionId: "ses_missing" })).toEqual([]);
    });

    it("takes one answer: a second answer finds it no longer pending", async () => {
      await seed();
      await store().createBlockingQuestion(newQuestion("q_1"));
      const answered = await store().answerBlockingQuestion({
        id: "q_1",
        answer: { answer: "Ship it", choices: ["Yes"] },
        at: T0 + 10,
      });
      expect(answered).toMatchObject({
        status: "answered",
        answer: "Ship it",
        choices: ["Yes"],
        answeredAt: T0 + 10,
      });
      expect(
        await store().answerBlockingQuestion({ id: "q_1", answer: { answer: "late" }, at: T0 + 11 }),
      ).toBeNull();
      expect(await store().getBlockingQuestion("q_1")).toEqual(answered);
      expect(await store().answerBlockingQuestion({ id: "q_missing", answer: {}, at: T0 })).toBeNull();
    });

    it("keeps an answer with only choices, or with neither", async () => {
      await seed();
      await store().createBlockingQuestion(newQuestion("q_1"));
      await store().createBlockingQuestion(newQuestion("q_2"));
      expect(
        await store().answerBlockingQuestion({ id: "q_1", answer: { choices: ["No"] }, at: T0 + 1 }),
      ).toMatchObject({ answer: null, choices: ["No"] });
      expect(await store().answerBlockingQuestion({ id: "q_2", answer: {}, at: T0 + 1 })).toMatchObject({
        status: "answered",
        answer: null,
        choices: null,
      });
    });

    it("gives a question to only one of several simultaneous answers", async () => {
      await seed();
      await store().createBlockingQuestion(newQuestion("q_1"));
      const results = await Promise.all(
        ["a", "b", "c", "d"].map((answer) =>
          store().answerBlockingQuestion({ id: "q_1", answer: { answer }, at: T0 }),
        ),
      );
      const won = results.filter((r) => r !== null);
      expect(won).toHaveLength(1);
      expect((await store().getBlockingQuestion("q_1"))?.answer).toBe(won[0]?.answer);
    });

    it("ends the pending questions of a turn, and only those", async () => {
      await seed();
      await store().createBlockingQuestion(newQuestion("q_1"));
      await store().createBlockingQuestion(newQuestion("q_2"));
      await store().createBlockingQuestion(newQuestion("q_answered"));
      await store().createBlockingQuestion(newQuestion("q_other_turn", { turnId: "trn_2" }));
      await store().answerBlockingQuestion({ id: "q_answered", answer: { answer: "Yes" }, at: T0 + 1 });

      expect(await store().endBlockingQuestionsOfTurn({ turnId: "trn_1", at: T0 + 2 })).toBe(2);
      expect((await store().getBlockingQuestion("q_1"))?.status).toBe("ended");
      expect((await store().getBlockingQuestion("q_2"))?.status).toBe("ended");
      expect(await store().getBlockingQuestion("q_answered")).toMatchObject({
        status: "answered",
        answer: "Yes",
      });
      expect((await store().getBlockingQuestion("q_other_turn"))?.status).toBe("pending");
      expect(
        await store().answerBlockingQuestion({ id: "q_1", answer: { answer: "late" }, at: T0 + 3 }),
      ).toBeNull();
      expect(await store().endBlockingQuestionsOfTurn({ turnId: "trn_1", at: T0 + 4 })).toBe(0);
    });
  });
}
