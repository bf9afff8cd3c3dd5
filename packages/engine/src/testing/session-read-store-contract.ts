import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { EngineStores } from "../ports/engine-stores";
import type { NewInboxQuestion } from "../ports/question-store";
import { newMessage, newSession, newTask, newTurn } from "./fixtures";

function inboxQuestion(
  id: string,
  sessionId: string,
  overrides: Partial<NewInboxQuestion> = {},
): NewInboxQuestion {
  return {
    id,
    askingRelay: null,
    askingSession: "ses_asker",
    sessionId,
    text: `Question ${id}?`,
    options: ["Yes", "No"],
    recommendation: null,
    detail: null,
    provenance: null,
    createdAt: T0,
    ...overrides,
  };
}

/**
 * The behaviour every SessionReadStore must have: each read gives exactly what the ports' own
 * reads give together (the fixture's store is the whole of EngineStores).
 */
export function runSessionReadStoreContract(setup: ContractSetup<ContractFixture<EngineStores>>): void {
  describe("SessionReadStore contract", () => {
    const fixture = useContractFixture(setup);
    const stores = () => fixture().store;

    /** Sessions with messages, Inbox questions and tasks of every kind the reads must tell apart. */
    async function seed() {
      const s = stores();
      await s.sessions.createSession(newSession("ses_asker", { createdAt: T0 }));
      await s.sessions.createSession(newSession("ses_1", { title: "Build", createdAt: T0 + 1 }));
      await s.sessions.createSession(newSession("ses_2", { createdAt: T0 + 2 }));
      await s.sessions.createSession(newSession("ses_old", { createdAt: T0 + 3 }));
      await s.sessions.createSession(newSession("ses_gone", { createdAt: T0 + 4 }));
      for (let n = 1; n <= 6; n++) {
        await s.sessions.appendMessage(
          newMessage(`msg_${n}`, "ses_1", { text: `line ${n} \u00e9\u{1F6F0}"\\`, createdAt: T0 + 10 + n }),
        );
      }
      await s.sessions.appendMessage(newMessage("msg_other", "ses_2", { createdAt: T0 + 20 }));
      await s.questions.createInboxQuestion(inboxQuestion("ask_b", "ses_1", { createdAt: T0 + 31 }));
      await s.questions.createInboxQuestion(inboxQuestion("ask_a", "ses_1", { createdAt: T0 + 30 }));
      await s.questions.createInboxQuestion(inboxQuestion("ask_closed", "ses_1", { createdAt: T0 + 29 }));
      await s.questions.closeInboxQuestion({
        id: "ask_closed",
        status: "answered",
        answer: "ok",
        at: T0 + 32,
      });
      await s.questions.createInboxQuestion(inboxQuestion("ask_other", "ses_2"));
      await s.tasks.insertTask(newTask("tsk_running", "ses_1", { startedAt: T0 + 40 }));
      await s.tasks.insertTask(newTask("tsk_recent", "ses_1", { startedAt: T0 + 41 }));
      await s.tasks.insertTask(newTask("tsk_long_ago", "ses_1", { startedAt: T0 + 42 }));
      await s.tasks.insertTask(newTask("tsk_2", "ses_2", { startedAt: T0 + 43 }));
      await s.tasks.endTask({ id: "tsk_recent", status: "finished", exitCode: 0, endedAt: T0 + 1_000 });
      await s.tasks.endTask({ id: "tsk_long_ago", status: "failed", exitCode: 1, endedAt: T0 + 100 });
      await s.sessions.archiveSession({ id: "ses_old", at: T0 + 50 });
      await s.sessions.deleteSession({ id: "ses_gone", at: T0 + 51 });
    }

    const composed = async (id: string, last: number, tasksEndedSince: number) => {
      const s = stores();
      const session = await s.sessions.getSession(id);
      return session === null
        ? null
        : {
            session,
            messages: await s.sessions.listMessages(id, { last }),
            inboxQuestions: await s.questions.listInboxQuestions({ sessionId: id, closedSince: null }),
            tasks: await s.tasks.listTasksOfSessions([id], { endedSince: tasksEndedSince }),
          };
    };

    it("readSession gives the session, its last messages, its pending Inbox questions and its tasks, as the ports' reads do", async () => {
      await seed();
      const read = await stores().reads.readSession({ id: "ses_1", last: 4, tasksEndedSince: T0 + 500 });
      expect(read).toEqual(await composed("ses_1", 4, T0 + 500));
      expect(read?.messages.map((message) => message.id)).toEqual(["msg_3", "msg_4", "msg_5", "msg_6"]);
      expect(read?.inboxQuestions.map((question) => question.id)).toEqual(["ask_a", "ask_b"]);
      expect(read?.tasks.map((one) => one.id)).toEqual(["tsk_running", "tsk_recent"]);
    });

    it("readSession reads an archived session, one with nothing, and no deleted or unknown one", async () => {
      await seed();
      expect(await stores().reads.readSession({ id: "ses_old", last: 20, tasksEndedSince: T0 })).toEqual(
        await composed("ses_old", 20, T0),
      );
      expect(await stores().reads.readSession({ id: "ses_asker", last: 0, tasksEndedSince: T0 })).toEqual({
        session: await stores().sessions.getSession("ses_asker"),
        messages: [],
        inboxQuestions: [],
        tasks: [],
      });
      expect(await stores().reads.readSession({ id: "ses_gone", last: 20, tasksEndedSince: T0 })).toBeNull();
      expect(await stores().reads.readSession({ id: "ses_none", last: 20, tasksEndedSince: T0 })).toBeNull();
    });

    it("listSessions gives the sessions of the scope and their tasks, as the ports' reads do", async () => {
      await seed();
      for (const scope of ["active", "archived", "all"] as const) {
        const listed = await stores().reads.listSessions({ scope, tasksEndedSince: T0 + 500 });
        const sessions = await stores().sessions.listSessions({ scope });
        expect(listed.sessions).toEqual(sessions);
        expect(listed.tasks).toEqual(
          await stores().tasks.listTasksOfSessions(
            sessions.map((session) => session.id),
            { endedSince: T0 + 500 },
          ),
        );
      }
      expect(await stores().reads.listSessions({ scope: "archived", tasksEndedSince: 0 })).toMatchObject({
        sessions: [{ id: "ses_old" }],
        tasks: [],
      });
    });

    it("listSessions of an empty relay gives nothing", async () => {
      expect(await stores().reads.listSessions({ scope: "all", tasksEndedSince: 0 })).toEqual({
        sessions: [],
        tasks: [],
      });
    });

    /** A session whose turns are of every kind readSessionHistory must tell apart. */
    async function seedTurns() {
      const { sessions } = stores();
      await sessions.createSession(newSession("ses_h", { createdAt: T0 }));
      await sessions.createSession(newSession("ses_other", { createdAt: T0 }));
      const turn = (id: string, sessionId: string, queuedAt: number, promptMessageId: string | null = null) =>
        sessions.enqueueTurn(newTurn(id, sessionId, { queuedAt, promptMessageId }));
      const end = (turnId: string, reply?: string) =>
        sessions.finishTurn({
          turnId,
          status: reply === undefined ? "stopped" : "done",
          endedAt: T0 + 30,
          ...(reply === undefined ? {} : { reply, replyMessageId: `rep_${turnId}` }),
        });
      // Its prompt names it, and its reply answers it.
      await sessions.appendMessage(newMessage("msg_1", "ses_h", { turnId: "trn_1", createdAt: T0 + 10 }));
      await turn("trn_1", "ses_h", T0 + 10, "msg_1");
      await end("trn_1", "done 1");
      // Found by its prompt only, and queued earlier than trn_1 though after it.
      await sessions.appendMessage(newMessage("msg_2", "ses_h", { createdAt: T0 + 11 }));
      await turn("trn_2", "ses_h", T0 + 5, "msg_2");
      await end("trn_2");
      // Ended, and nothing of the session names it.
      await turn("trn_gone", "ses_h", T0 + 12);
      await end("trn_gone");
      await sessions.appendMessage(newMessage("msg_3", "ses_h", { role: "assistant", createdAt: T0 + 13 }));
      await turn("trn_not_user", "ses_h", T0 + 13, "msg_3");
      await end("trn_not_user");
      // Another session's turn that a message here names.
      await turn("trn_o", "ses_other", T0 + 14);
      await sessions.appendMessage(newMessage("msg_4", "ses_h", { turnId: "trn_o", createdAt: T0 + 14 }));
      // Running and queued, at one instant: in the order they were queued.
      await turn("trn_run", "ses_h", T0 + 20);
      await sessions.claimNextTurn({ sessionId: "ses_h", now: T0 + 21 });
      await turn("trn_queued", "ses_h", T0 + 20);
    }

    it("readSessionHistory gives the session, all its messages and the turns they name or that are still active, oldest first", async () => {
      await seedTurns();
      const { sessions, reads } = stores();
      const history = await reads.readSessionHistory("ses_h");
      const shown = ["trn_2", "trn_1", "trn_run", "trn_queued"];
      expect(history).toEqual({
        session: await sessions.getSession("ses_h"),
        messages: await sessions.listMessages("ses_h"),
        turns: await Promise.all(shown.map((id) => sessions.getTurn(id))),
      });
      expect(history?.turns.map((turn) => [turn.id, turn.status])).toEqual([
        ["trn_2", "stopped"],
        ["trn_1", "done"],
        ["trn_run", "running"],
        ["trn_queued", "queued"],
      ]);
    });

    it("readSessionHistory reads an archived session and one with nothing, and no deleted or unknown one", async () => {
      await seed();
      const { sessions, reads } = stores();
      expect(await reads.readSessionHistory("ses_old")).toEqual({
        session: await sessions.getSession("ses_old"),
        messages: [],
        turns: [],
      });
      expect(await reads.readSessionHistory("ses_2")).toEqual({
        session: await sessions.getSession("ses_2"),
        messages: await sessions.listMessages("ses_2"),
        turns: [],
      });
      expect(await reads.readSessionHistory("ses_gone")).toBeNull();
      expect(await reads.readSessionHistory("ses_none")).toBeNull();
    });
  });
}
