import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { NewBlockingQuestion, NewInboxQuestion, QuestionStore } from "../ports/question-store";
import type { Provenance, SessionStore } from "../ports/session-store";
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

function newInboxQuestion(id: string, overrides: Partial<NewInboxQuestion> = {}): NewInboxQuestion {
  return {
    id,
    askingRelay: null,
    askingSession: "ses_1",
    sessionId: "ses_1",
    text: `Question ${id}?`,
    options: [],
    recommendation: null,
    detail: null,
    provenance: null,
    createdAt: T0,
    ...overrides,
  };
}

const PROVENANCE: Provenance = {
  relay: "relay-b",
  session: "ses_remote",
  title: "Release captain",
  model: "script-1",
  hops: 1,
  userUnlocked: false,
};

/**
 * The behaviour every QuestionStore must have: blocking question cards (`ask_user`, R-RSES-02) and
 * non-blocking Inbox questions (`ask`, §34), each kind invisible to the other's methods.
 */
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
      await store().createInboxQuestion(newInboxQuestion("q_inbox"));
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
      expect(await store().getInboxQuestion("q_inbox")).toMatchObject({ status: "pending", closedAt: null });
    });

    describe("Inbox questions", () => {
      const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);

      it("creates a pending question and reads every field back", async () => {
        await seed();
        const input = newInboxQuestion("q_1", {
          askingRelay: "relay-b",
          askingSession: "ses_remote",
          sessionId: "ses_2",
          text: "Which region first?",
          options: ["eu-west", "us-east"],
          recommendation: "eu-west",
          detail: "The EU traffic is lower at this hour.",
          provenance: PROVENANCE,
          createdAt: T0 + 5,
        });
        const created = await store().createInboxQuestion(input);
        expect(created).toEqual({
          ...input,
          status: "pending",
          answer: null,
          choice: null,
          via: null,
          closedAt: null,
          keptOnRelay: null,
          nextPollAt: null,
        });
        expect(await store().getInboxQuestion("q_1")).toEqual(created);
        expect(await store().getInboxQuestion("q_missing")).toBeNull();

        await store().createInboxQuestion(newInboxQuestion("q_2"));
        expect(await store().getInboxQuestion("q_2")).toMatchObject({
          askingRelay: null,
          options: [],
          recommendation: null,
          detail: null,
          provenance: null,
          keptOnRelay: null,
          nextPollAt: null,
        });
      });

      it("keeps this relay's copy of a question kept on a paired relay, with its next poll", async () => {
        await seed();
        // A question about a session of relay-b: the copy's session id is relay-b's.
        const input = newInboxQuestion("q_copy", {
          sessionId: "ses_remote",
          keptOnRelay: "relay-b",
          nextPollAt: T0 + 5_000,
        });
        const created = await store().createInboxQuestion(input);
        expect(created).toEqual({
          ...input,
          status: "pending",
          answer: null,
          choice: null,
          via: null,
          closedAt: null,
        });
        expect(await store().getInboxQuestion("q_copy")).toEqual(created);

        await store().createInboxQuestion(
          newInboxQuestion("q_unscheduled", { keptOnRelay: "relay-b", nextPollAt: null }),
        );
        expect(await store().getInboxQuestion("q_unscheduled")).toMatchObject({
          keptOnRelay: "relay-b",
          nextPollAt: null,
        });
      });

      it("keeps the two kinds apart: each kind's methods ignore the other's rows", async () => {
        await seed();
        await store().createBlockingQuestion(newQuestion("q_card"));
        await store().createInboxQuestion(newInboxQuestion("q_inbox"));

        expect(await store().getInboxQuestion("q_card")).toBeNull();
        expect(await store().getBlockingQuestion("q_inbox")).toBeNull();
        expect(ids(await store().listBlockingQuestions({}))).toEqual(["q_card"]);
        expect(ids(await store().listBlockingQuestions({ sessionId: "ses_1", status: "pending" }))).toEqual([
          "q_card",
        ]);
        expect(ids(await store().listInboxQuestions({ closedSince: 0 }))).toEqual(["q_inbox"]);
        expect(await store().countPendingInbox({ askingSession: "ses_1", sessionId: "ses_1" })).toEqual({
          asked: 1,
          concerning: 1,
        });

        expect(
          await store().answerBlockingQuestion({ id: "q_inbox", answer: { answer: "x" }, at: T0 }),
        ).toBeNull();
        expect(await store().closeInboxQuestion({ id: "q_card", status: "dismissed", at: T0 })).toBeNull();
        expect(await store().endInboxQuestionsOf({ sessionIds: ["ses_1"], at: T0 + 1 })).toHaveLength(1);
        expect(await store().getBlockingQuestion("q_card")).toMatchObject({ status: "pending" });
        expect(await store().moveInboxQuestions({ from: "ses_1", to: "ses_2" })).toBe(1);
        expect(await store().getBlockingQuestion("q_card")).toMatchObject({ sessionId: "ses_1" });
      });

      it("refuses an id that a question of the other kind has", async () => {
        await seed();
        await store().createBlockingQuestion(newQuestion("q_1"));
        await store().createInboxQuestion(newInboxQuestion("q_2"));
        await expect(store().createInboxQuestion(newInboxQuestion("q_1"))).rejects.toThrow();
        await expect(store().createBlockingQuestion(newQuestion("q_2"))).rejects.toThrow();
      });

      it("lists by asker and subject, pending ones and those closed since a time, oldest first", async () => {
        await seed();
        await store().createInboxQuestion(
          newInboxQuestion("q_about_2", { sessionId: "ses_2", createdAt: T0 + 2 }),
        );
        await store().createInboxQuestion(newInboxQuestion("q_own", { createdAt: T0 + 1 }));
        await store().createInboxQuestion(
          newInboxQuestion("q_from_2", { askingSession: "ses_2", sessionId: "ses_2", createdAt: T0 + 3 }),
        );
        // Asked by a conversation of another relay that has the same session id: not ses_1's.
        await store().createInboxQuestion(
          newInboxQuestion("q_remote", { askingRelay: "relay-b", sessionId: "ses_2", createdAt: T0 + 4 }),
        );
        await store().createInboxQuestion(newInboxQuestion("q_closed_early", { createdAt: T0 }));
        await store().createInboxQuestion(newInboxQuestion("q_closed_late", { createdAt: T0 + 5 }));
        await store().closeInboxQuestion({ id: "q_closed_early", status: "dismissed", at: T0 + 10 });
        await store().closeInboxQuestion({ id: "q_closed_late", status: "withdrawn", at: T0 + 100 });

        expect(ids(await store().listInboxQuestions({ askingSession: "ses_1", closedSince: null }))).toEqual([
          "q_own",
          "q_about_2",
        ]);
        expect(
          ids(await store().listInboxQuestions({ askingSession: "ses_1", closedSince: T0 + 50 })),
        ).toEqual(["q_own", "q_about_2", "q_closed_late"]);
        expect(
          ids(await store().listInboxQuestions({ askingSession: "ses_1", closedSince: T0 + 10 })),
        ).toEqual(["q_closed_early", "q_own", "q_about_2", "q_closed_late"]);
        expect(ids(await store().listInboxQuestions({ sessionId: "ses_2", closedSince: null }))).toEqual([
          "q_about_2",
          "q_from_2",
          "q_remote",
        ]);
        expect(ids(await store().listInboxQuestions({ askingSession: "ses_2", closedSince: null }))).toEqual([
          "q_from_2",
        ]);
        expect(
          ids(
            await store().listInboxQuestions({
              askingSession: "ses_2",
              sessionId: "ses_1",
              closedSince: null,
            }),
          ),
        ).toEqual(["q_own", "q_from_2"]);
        expect(ids(await store().listInboxQuestions({ closedSince: null }))).toEqual([
          "q_own",
          "q_about_2",
          "q_from_2",
          "q_remote",
        ]);
        expect(await store().listInboxQuestions({ sessionId: "ses_missing", closedSince: 0 })).toEqual([]);
      });

      it("counts the pending questions a conversation asked and those about a session", async () => {
        await seed();
        await store().createInboxQuestion(newInboxQuestion("q_own"));
        await store().createInboxQuestion(newInboxQuestion("q_about_2", { sessionId: "ses_2" }));
        await store().createInboxQuestion(newInboxQuestion("q_answered"));
        await store().createInboxQuestion(newInboxQuestion("q_remote", { askingRelay: "relay-b" }));
        await store().createInboxQuestion(newInboxQuestion("q_from_2", { askingSession: "ses_2" }));
        await store().closeInboxQuestion({ id: "q_answered", status: "answered", answer: "ok", at: T0 + 1 });

        expect(await store().countPendingInbox({ askingSession: "ses_1", sessionId: "ses_1" })).toEqual({
          asked: 2,
          concerning: 3,
        });
        expect(await store().countPendingInbox({ askingSession: "ses_2", sessionId: "ses_2" })).toEqual({
          asked: 1,
          concerning: 1,
        });
        expect(await store().countPendingInbox({ askingSession: "ses_none", sessionId: "ses_none" })).toEqual(
          {
            asked: 0,
            concerning: 0,
          },
        );
      });

      it("closes a pending question once, answered, dismissed or withdrawn", async () => {
        await seed();
        await store().createInboxQuestion(
          newInboxQuestion("q_answered", { options: ["eu-west", "us-east"] }),
        );
        await store().createInboxQuestion(newInboxQuestion("q_dismissed"));
        await store().createInboxQuestion(newInboxQuestion("q_withdrawn"));

        const answered = await store().closeInboxQuestion({
          id: "q_answered",
          status: "answered",
          answer: "Start with the EU.",
          choice: "eu-west",
          via: "relay-b",
          at: T0 + 10,
        });
        expect(answered).toEqual({
          ...newInboxQuestion("q_answered", { options: ["eu-west", "us-east"] }),
          status: "answered",
          answer: "Start with the EU.",
          choice: "eu-west",
          via: "relay-b",
          closedAt: T0 + 10,
          keptOnRelay: null,
          nextPollAt: null,
        });
        expect(await store().getInboxQuestion("q_answered")).toEqual(answered);
        expect(
          await store().closeInboxQuestion({ id: "q_answered", status: "dismissed", at: T0 + 11 }),
        ).toBeNull();
        expect(await store().getInboxQuestion("q_answered")).toEqual(answered);

        expect(
          await store().closeInboxQuestion({ id: "q_dismissed", status: "dismissed", at: T0 + 20 }),
        ).toMatchObject({ status: "dismissed", answer: null, choice: null, via: null, closedAt: T0 + 20 });
        expect(
          await store().closeInboxQuestion({
            id: "q_withdrawn",
            status: "withdrawn",
            answer: null,
            choice: null,
            via: null,
            at: T0 + 30,
          }),
        ).toMatchObject({ status: "withdrawn", answer: null, choice: null, closedAt: T0 + 30 });
        expect(
          await store().closeInboxQuestion({
            id: "q_withdrawn",
            status: "answered",
            answer: "late",
            at: T0 + 31,
          }),
        ).toBeNull();
        expect(await store().closeInboxQuestion({ id: "q_missing", status: "answered", at: T0 })).toBeNull();
      });

      it("gives a question to only one of several simultaneous closings", async () => {
        await seed();
        await store().createInboxQuestion(newInboxQuestion("q_1"));
        const results = await Promise.all(
          ["a", "b", "c", "d"].map((answer) =>
            store().closeInboxQuestion({ id: "q_1", status: "answered", answer, at: T0 }),
          ),
        );
        const won = results.filter((r) => r !== null);
        expect(won).toHaveLength(1);
        expect((await store().getInboxQuestion("q_1"))?.answer).toBe(won[0]?.answer);
      });

      it("ends the pending questions about some sessions or asked by them here, and returns them", async () => {
        await seed();
        await store().createInboxQuestion(newInboxQuestion("q_own"));
        await store().createInboxQuestion(newInboxQuestion("q_asked", { sessionId: "ses_2" }));
        await store().createInboxQuestion(newInboxQuestion("q_about", { askingSession: "ses_2" }));
        await store().createInboxQuestion(newInboxQuestion("q_answered"));
        await store().createInboxQuestion(
          newInboxQuestion("q_remote", { askingRelay: "relay-b", sessionId: "ses_2" }),
        );
        await store().createInboxQuestion(
          newInboxQuestion("q_other", { askingSession: "ses_2", sessionId: "ses_2" }),
        );
        await store().closeInboxQuestion({ id: "q_answered", status: "answered", answer: "ok", at: T0 + 1 });

        const ended = await store().endInboxQuestionsOf({ sessionIds: ["ses_1", "ses_missing"], at: T0 + 5 });
        expect(ids(ended).sort()).toEqual(["q_about", "q_asked", "q_own"]);
        for (const record of ended) {
          expect(record).toMatchObject({ status: "ended", closedAt: T0 + 5 });
          expect(await store().getInboxQuestion(record.id)).toEqual(record);
        }
        expect(await store().getInboxQuestion("q_answered")).toMatchObject({
          status: "answered",
          closedAt: T0 + 1,
        });
        expect(await store().getInboxQuestion("q_remote")).toMatchObject({ status: "pending" });
        expect(await store().getInboxQuestion("q_other")).toMatchObject({ status: "pending" });
        expect(await store().endInboxQuestionsOf({ sessionIds: ["ses_1"], at: T0 + 6 })).toEqual([]);
        expect(await store().endInboxQuestionsOf({ sessionIds: [], at: T0 + 6 })).toEqual([]);
      });

      it("moves the questions asked by or about a session to its successor", async () => {
        await seed();
        await store().createInboxQuestion(newInboxQuestion("q_own"));
        await store().createInboxQuestion(newInboxQuestion("q_asked", { sessionId: "ses_2" }));
        await store().createInboxQuestion(newInboxQuestion("q_about", { askingSession: "ses_2" }));
        await store().createInboxQuestion(newInboxQuestion("q_closed"));
        await store().createInboxQuestion(
          newInboxQuestion("q_remote", { askingRelay: "relay-b", sessionId: "ses_2" }),
        );
        await store().createInboxQuestion(
          newInboxQuestion("q_other", { askingSession: "ses_2", sessionId: "ses_2" }),
        );
        await store().closeInboxQuestion({ id: "q_closed", status: "dismissed", at: T0 + 1 });

        expect(await store().moveInboxQuestions({ from: "ses_1", to: "ses_new" })).toBe(4);
        const parties = async (id: string) => {
          const record = await store().getInboxQuestion(id);
          return [record?.askingSession, record?.sessionId];
        };
        expect(await parties("q_own")).toEqual(["ses_new", "ses_new"]);
        expect(await parties("q_asked")).toEqual(["ses_new", "ses_2"]);
        expect(await parties("q_about")).toEqual(["ses_2", "ses_new"]);
        expect(await parties("q_closed")).toEqual(["ses_new", "ses_new"]);
        expect(await parties("q_remote")).toEqual(["ses_1", "ses_2"]);
        expect(await parties("q_other")).toEqual(["ses_2", "ses_2"]);
        expect(await store().countPendingInbox({ askingSession: "ses_new", sessionId: "ses_new" })).toEqual({
          asked: 2,
          concerning: 2,
        });
        expect(await store().moveInboxQuestions({ from: "ses_1", to: "ses_new" })).toBe(0);
      });

      describe("copies of questions kept on paired relays", () => {
        const copy = (
          id: string,
          relay: string,
          nextPollAt: number | null,
          overrides: Partial<NewInboxQuestion> = {},
        ) => newInboxQuestion(id, { sessionId: "ses_remote", keptOnRelay: relay, nextPollAt, ...overrides });

        it("claims the pending copies whose poll is due, earliest first, up to the limit", async () => {
          await seed();
          await store().createInboxQuestion(copy("q_late", "relay-b", T0 + 30));
          await store().createInboxQuestion(copy("q_early", "relay-c", T0 + 10));
          await store().createInboxQuestion(copy("q_now_b", "relay-b", T0 + 20));
          await store().createInboxQuestion(copy("q_now_a", "relay-b", T0 + 20));
          await store().createInboxQuestion(copy("q_future", "relay-b", T0 + 21));
          await store().createInboxQuestion(copy("q_unscheduled", "relay-b", null));
          await store().createInboxQuestion(copy("q_closed", "relay-b", T0));
          // Not a copy: a question kept here is never polled, even with a poll time on it.
          await store().createInboxQuestion(newInboxQuestion("q_local", { nextPollAt: T0 }));
          await store().createBlockingQuestion(newQuestion("q_card"));
          await store().closeInboxQuestion({ id: "q_closed", status: "answered", answer: "ok", at: T0 + 1 });
          await store().setNextPoll("q_late", T0 + 5);

          expect(ids(await store().claimDuePolls({ now: T0 + 20, limit: 10 }))).toEqual([
            "q_late",
            "q_early",
            "q_now_b",
            "q_now_a",
          ]);
          expect(ids(await store().claimDuePolls({ now: T0 + 20, limit: 2 }))).toEqual(["q_late", "q_early"]);
          expect(await store().claimDuePolls({ now: T0 + 20, limit: 0 })).toEqual([]);
          expect(await store().claimDuePolls({ now: T0 + 4, limit: 10 })).toEqual([]);
          const [claimed] = await store().claimDuePolls({ now: T0 + 5, limit: 1 });
          expect(claimed).toEqual(await store().getInboxQuestion("q_late"));
          expect(claimed).toMatchObject({ keptOnRelay: "relay-b", nextPollAt: T0 + 5, status: "pending" });
        });

        it("sets the next poll of a pending question, and not of a closed or unknown one", async () => {
          await seed();
          await store().createInboxQuestion(copy("q_copy", "relay-b", T0));
          await store().createInboxQuestion(copy("q_closed", "relay-b", T0));
          await store().createBlockingQuestion(newQuestion("q_card"));
          await store().closeInboxQuestion({ id: "q_closed", status: "dismissed", at: T0 + 1 });

          await store().setNextPoll("q_copy", T0 + 30_000);
          expect(await store().getInboxQuestion("q_copy")).toMatchObject({ nextPollAt: T0 + 30_000 });
          await store().setNextPoll("q_copy", T0 + 5_000);
          expect(await store().getInboxQuestion("q_copy")).toMatchObject({ nextPollAt: T0 + 5_000 });

          await store().setNextPoll("q_closed", T0 + 5_000);
          expect(await store().getInboxQuestion("q_closed")).toMatchObject({
            status: "dismissed",
            nextPollAt: null,
          });
          await store().setNextPoll("q_missing", T0 + 5_000);
          await store().setNextPoll("q_card", T0 + 5_000);
          expect(await store().getInboxQuestion("q_missing")).toBeNull();
          expect(await store().getBlockingQuestion("q_card")).toMatchObject({ status: "pending" });
          expect(await store().nextPollAt()).toBe(T0 + 5_000);
        });

        it("gives the earliest next poll of the pending copies, or null", async () => {
          await seed();
          expect(await store().nextPollAt()).toBeNull();
          await store().createInboxQuestion(newInboxQuestion("q_local", { nextPollAt: T0 }));
          await store().createInboxQuestion(copy("q_unscheduled", "relay-b", null));
          expect(await store().nextPollAt()).toBeNull();

          await store().createInboxQuestion(copy("q_later", "relay-b", T0 + 30));
          await store().createInboxQuestion(copy("q_sooner", "relay-c", T0 + 10));
          expect(await store().nextPollAt()).toBe(T0 + 10);
          await store().closeInboxQuestion({ id: "q_sooner", status: "withdrawn", at: T0 + 1 });
          expect(await store().nextPollAt()).toBe(T0 + 30);
          await store().setNextPoll("q_later", T0 + 20);
          expect(await store().nextPollAt()).toBe(T0 + 20);
          await store().endInboxQuestionsKeptOn({ relay: "relay-b", at: T0 + 2 });
          expect(await store().nextPollAt()).toBeNull();
        });

        it("ends the pending copies kept on one relay, and returns them", async () => {
          await seed();
          await store().createInboxQuestion(copy("q_b1", "relay-b", T0 + 10));
          await store().createInboxQuestion(copy("q_b2", "relay-b", null));
          await store().createInboxQuestion(copy("q_b_answered", "relay-b", T0));
          await store().createInboxQuestion(copy("q_c", "relay-c", T0 + 10));
          // Asked from relay-b, kept here: not a copy.
          await store().createInboxQuestion(newInboxQuestion("q_from_b", { askingRelay: "relay-b" }));
          await store().createInboxQuestion(newInboxQuestion("q_local"));
          await store().closeInboxQuestion({
            id: "q_b_answered",
            status: "answered",
            answer: "ok",
            via: "relay-b",
            at: T0 + 1,
          });

          const ended = await store().endInboxQuestionsKeptOn({ relay: "relay-b", at: T0 + 5 });
          expect(ids(ended).sort()).toEqual(["q_b1", "q_b2"]);
          for (const record of ended) {
            expect(record).toMatchObject({
              status: "ended",
              closedAt: T0 + 5,
              keptOnRelay: "relay-b",
              nextPollAt: null,
            });
            expect(await store().getInboxQuestion(record.id)).toEqual(record);
          }
          expect(await store().getInboxQuestion("q_b_answered")).toMatchObject({
            status: "answered",
            closedAt: T0 + 1,
          });
          expect(await store().getInboxQuestion("q_c")).toMatchObject({
            status: "pending",
            nextPollAt: T0 + 10,
          });
          expect(await store().getInboxQuestion("q_from_b")).toMatchObject({ status: "pending" });
          expect(await store().getInboxQuestion("q_local")).toMatchObject({ status: "pending" });
          expect(await store().endInboxQuestionsKeptOn({ relay: "relay-b", at: T0 + 6 })).toEqual([]);
          expect(await store().endInboxQuestionsKeptOn({ relay: "relay-missing", at: T0 + 6 })).toEqual([]);
          expect(ids(await store().claimDuePolls({ now: T0 + 100, limit: 10 }))).toEqual(["q_c"]);
        });

        it("stops polling a copy once it is closed, whichever way", async () => {
          await seed();
          await store().createInboxQuestion(copy("q_answered", "relay-b", T0 + 10));
          await store().createInboxQuestion(copy("q_withdrawn", "relay-b", T0 + 10));
          // A copy asked by ses_1: ended with its asker.
          await store().createInboxQuestion(copy("q_asker_ended", "relay-b", T0 + 10));

          expect(
            await store().closeInboxQuestion({
              id: "q_answered",
              status: "answered",
              answer: "Yes",
              via: "relay-b",
              at: T0 + 1,
            }),
          ).toMatchObject({ status: "answered", keptOnRelay: "relay-b", nextPollAt: null });
          expect(
            await store().closeInboxQuestion({ id: "q_withdrawn", status: "withdrawn", at: T0 + 2 }),
          ).toMatchObject({ status: "withdrawn", nextPollAt: null });
          expect(await store().endInboxQuestionsOf({ sessionIds: ["ses_1"], at: T0 + 3 })).toEqual([
            expect.objectContaining({ id: "q_asker_ended", status: "ended", nextPollAt: null }),
          ]);
          for (const id of ["q_answered", "q_withdrawn", "q_asker_ended"]) {
            expect(await store().getInboxQuestion(id)).toMatchObject({
              keptOnRelay: "relay-b",
              nextPollAt: null,
            });
          }
          expect(await store().claimDuePolls({ now: T0 + 100, limit: 10 })).toEqual([]);
          expect(await store().nextPollAt()).toBeNull();
        });
      });
    });
  });
}
