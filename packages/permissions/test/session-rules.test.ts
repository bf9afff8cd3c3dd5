import { ACTIONS } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { activeSessionsRule, answerQuestionRule, notOnItselfRule, oneLevelRule } from "../src";

describe("rules for sessions on this relay (§5)", () => {
  it("R-LOCAL-01/02: 4 at work pass, the fifth is REMOTE_RELAY_LIMIT", () => {
    for (const active of [0, 1, 2, 3]) {
      expect(activeSessionsRule({ active, woken: { kind: "new" } }).kind).toBe("allow");
    }
    expect(activeSessionsRule({ active: 4, woken: { kind: "new" } })).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_LIMIT",
      message:
        "This conversation already has 4 sessions it started at work (a turn queued or running); at most 4 may be, so wait until one of them has finished. Nothing was created.",
    });
    expect(
      activeSessionsRule({ active: 4, woken: { kind: "existing", startedByCaller: true, busy: false } }),
    ).toMatchObject({ code: "REMOTE_RELAY_LIMIT", message: expect.stringMatching(/Nothing was sent\.$/) });
  });

  it("R-LOCAL-01: a send to a session that is already at work, or that the conversation did not start, adds none", () => {
    expect(
      activeSessionsRule({ active: 4, woken: { kind: "existing", startedByCaller: true, busy: true } }).kind,
    ).toBe("allow");
    expect(
      activeSessionsRule({ active: 9, woken: { kind: "existing", startedByCaller: false, busy: false } })
        .kind,
    ).toBe("allow");
  });

  it("R-LOCAL-03: one level only, unless the owner set mayCreateSessions", () => {
    expect(oneLevelRule({ startedByAgent: false, mayCreateSessions: false }).kind).toBe("allow");
    expect(oneLevelRule({ startedByAgent: true, mayCreateSessions: true }).kind).toBe("allow");
    expect(oneLevelRule({ startedByAgent: true, mayCreateSessions: false })).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_LIMIT",
      message:
        'This conversation was itself started by an agent, so it cannot start sessions (one level only) unless the owner enables "Agents in this conversation may start sessions" for it. Nothing was created.',
    });
  });

  it("R-LOCAL-06: send, wait, stop, archive, answer_question and update_session never act on the own conversation", () => {
    const refused = ACTIONS.filter(
      (action) =>
        notOnItselfRule({ action, targetSession: "ses_me", callerSession: "ses_me" }).kind === "refuse",
    );
    expect(refused).toEqual(["send", "update_session", "wait", "answer_question", "stop", "archive"]);
    expect(notOnItselfRule({ action: "send", targetSession: "ses_me", callerSession: "ses_me" })).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_SELF",
      message:
        "send cannot act on this conversation itself (session ses_me): an agent never uses it on the conversation it runs in.",
    });
    expect(
      notOnItselfRule({ action: "send", targetSession: "ses_other", callerSession: "ses_me" }).kind,
    ).toBe("allow");
  });

  it("R-ANS-04/05: a non-blocking question or an approval card is the user's: REMOTE_RELAY_FORBIDDEN", () => {
    expect(answerQuestionRule({ questionId: "ask_7d2abc" })).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_FORBIDDEN",
      message:
        "answer_question cannot answer ask_7d2abc: it is a non-blocking question, which only the user answers, in the session or in an Inbox. answer_question answers the cards a session waits on (pendingQuestions of kind ask_user in read_session). Nothing was answered.",
    });
    expect(answerQuestionRule({ questionId: "card_1" })).toMatchObject({ code: "REMOTE_RELAY_FORBIDDEN" });
    expect(answerQuestionRule({ questionId: "q_7d2" }).kind).toBe("allow");
  });
});
