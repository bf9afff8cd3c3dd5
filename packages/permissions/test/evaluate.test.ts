import { describe, expect, it } from "vitest";
import { type EvaluateQuery, evaluateCall } from "../src";

const self = { kind: "self" as const, name: "desk", agentSessionsEnabled: true };
const base: EvaluateQuery = {
  action: "send",
  session: "ses_other",
  caller: {
    session: "ses_me",
    mode: "agent",
    inTurn: true,
    startedByAgent: false,
    mayCreateSessions: false,
    turnHops: 0,
  },
  relay: self,
  target: { id: "ses_other", startedByCaller: false, busy: false },
};
const withCaller = (
  caller: Partial<EvaluateQuery["caller"]>,
  query: Partial<EvaluateQuery> = {},
): EvaluateQuery => ({
  ...base,
  ...query,
  caller: { ...base.caller, ...caller },
});
/** The query without a `session` argument. */
const noSession = (query: EvaluateQuery): EvaluateQuery => {
  const { session: _session, ...rest } = query;
  return rest;
};
const outcome = (query: EvaluateQuery) => {
  const decision = evaluateCall(query);
  if (decision.kind === "refuse") {
    return decision.code;
  }
  return decision.kind === "ask" ? decision.cards.map((card) => card.kind) : "allow";
};

describe("evaluateCall: one decision per call", () => {
  it("R-PERM-03, R-LOCK-04: list_relays is allowed whatever the state", () => {
    expect(
      outcome({
        ...base,
        action: "list_relays",
        relay: { kind: "paired", name: "x", level: "none", unlock: null },
        caller: { ...base.caller, inTurn: false, mode: "plan" },
      }),
    ).toBe("allow");
  });

  it("R-LOCAL-06: an agent never sends to, waits on, stops, archives or updates its own conversation", () => {
    for (const action of ["send", "wait", "stop", "archive", "update_session"] as const) {
      expect(outcome({ ...base, action, session: "ses_me" }), action).toBe("REMOTE_RELAY_SELF");
    }
    expect(outcome({ ...base, action: "read_session", session: "ses_me" })).toBe("allow");
  });

  it("R-LOCAL-06, R-ANS-04: nor answers its own question (REMOTE_RELAY_FORBIDDEN: it is for the user)", () => {
    const query: EvaluateQuery = {
      ...base,
      action: "answer_question",
      questionId: "q_1",
      target: { id: "ses_me", startedByCaller: false, busy: false },
    };
    expect(outcome(query)).toBe("REMOTE_RELAY_FORBIDDEN");
    expect(outcome({ ...query, target: { id: "ses_other", startedByCaller: false, busy: false } })).toBe(
      "allow",
    );
  });

  it("R-ANS-05: a non-blocking question is refused before anything else about the session", () => {
    expect(
      outcome({
        ...base,
        action: "answer_question",
        questionId: "ask_1",
        target: { id: "ses_me", startedByCaller: false, busy: false },
      }),
    ).toBe("REMOTE_RELAY_FORBIDDEN");
  });

  it("R-LOCAL-06 applies on this relay only: a session id on a paired relay is another session", () => {
    expect(
      outcome({
        ...base,
        session: "ses_me",
        relay: { kind: "paired", name: "build-box", level: "full", unlock: "mention" },
      }),
    ).toBe("allow");
  });

  it("R-HOP-01 inside the decision: a turn that came over two relays cannot prompt a relay opened by its agent", () => {
    const query = withCaller(
      { turnHops: 2 },
      { relay: { kind: "paired", name: "third", level: "full", unlock: "agent" } },
    );
    expect(outcome(query)).toBe("REMOTE_RELAY_HOP_LIMIT");
    expect(outcome({ ...query, action: "wait" })).toBe("allow");
    expect(
      outcome({ ...query, relay: { kind: "paired", name: "third", level: "full", unlock: "mention" } }),
    ).toBe("allow");
  });

  it("R-LOCK-04 before R-HOP-01: a locked relay says so first", () => {
    expect(
      outcome(
        withCaller(
          { turnHops: 2 },
          { relay: { kind: "paired", name: "third", level: "full", unlock: null } },
        ),
      ),
    ).toBe("REMOTE_RELAY_LOCKED");
  });

  it("R-LOCAL-03: a conversation an agent started cannot create sessions, on any relay", () => {
    const create = noSession(withCaller({ startedByAgent: true }, { action: "create_session" }));
    expect(outcome(create)).toBe("REMOTE_RELAY_LIMIT");
    expect(outcome({ ...create, relay: { kind: "paired", name: "b", level: "full", unlock: "agent" } })).toBe(
      "REMOTE_RELAY_LIMIT",
    );
    expect(outcome({ ...create, caller: { ...create.caller, mayCreateSessions: true } })).toEqual([
      "first_create_session",
    ]);
  });

  it("R-LOCAL-01/02: the 4-at-work rule counts on this relay, for create_session and for send to an idle own session", () => {
    const { target: _target, ...withoutTarget } = noSession(base);
    const create: EvaluateQuery = { ...withoutTarget, action: "create_session", activeStartedSessions: 4 };
    expect(outcome(create)).toBe("REMOTE_RELAY_LIMIT");
    expect(outcome({ ...create, activeStartedSessions: 3 })).toEqual(["first_create_session"]);
    expect(
      outcome({ ...create, relay: { kind: "paired", name: "b", level: "full", unlock: "agent" } }),
    ).toEqual(["first_create_session"]);
    const send: EvaluateQuery = {
      ...base,
      activeStartedSessions: 4,
      target: { id: "ses_other", startedByCaller: true, busy: false },
    };
    expect(outcome(send)).toBe("REMOTE_RELAY_LIMIT");
    expect(outcome({ ...send, target: { id: "ses_other", startedByCaller: true, busy: true } })).toBe(
      "allow",
    );
  });

  it("R-UPD-11, GAP-04: a card with no turn in progress to show it in is REMOTE_RELAY_NO_ACTIVE_TURN", () => {
    const query = withCaller({ inTurn: false }, { action: "create_session" });
    expect(evaluateCall(query)).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_NO_ACTIVE_TURN",
      message:
        "create_session needs the user's approval on a card, but this conversation has no turn in progress in which to ask. Nothing was done.",
    });
    // No card needed: no turn needed either.
    expect(outcome(withCaller({ inTurn: false }))).toBe("allow");
  });

  it("R-UPD-09/10: update_session on a session the conversation did not start asks, naming the session and the change", () => {
    const decision = evaluateCall({
      ...base,
      action: "update_session",
      target: { id: "ses_other", title: "Review: server/", startedByCaller: false, busy: false },
      details: { changes: { model: "m2" } },
    });
    expect(decision).toMatchObject({
      kind: "ask",
      cards: [
        {
          kind: "update_other_session",
          targetRelay: "desk",
          targetSession: "ses_other",
          detail: ["Model: m2"],
        },
      ],
    });
  });

  it("R-QCHK-01/02: ask about the own conversation needs nothing; on behalf of another session it is a write", () => {
    const off = { ...self, agentSessionsEnabled: false };
    expect(outcome(noSession({ ...base, action: "ask", relay: off }))).toBe("allow");
    expect(outcome({ ...base, action: "ask", session: "ses_me", relay: off })).toBe("allow");
    expect(outcome({ ...base, action: "ask", session: "ses_other", relay: off })).toBe(
      "REMOTE_RELAY_PERMISSION",
    );
    expect(outcome(withCaller({ mode: "ask" }, { action: "ask", session: "ses_other" }))).toEqual([
      "write_in_mode",
    ]);
  });

  it("GAP-04 (f): the 31st prompt since the owner wrote asks, with an anti-loop card", () => {
    expect(outcome({ ...base, promptsSinceOwnerWrote: 29 })).toBe("allow");
    expect(outcome({ ...base, promptsSinceOwnerWrote: 30 })).toEqual(["anti_loop"]);
    expect(
      outcome({ ...base, action: "schedule", session: "ses_other", promptsSinceOwnerWrote: 30 }),
    ).toEqual(["anti_loop"]);
    expect(outcome({ ...base, action: "schedule", session: "ses_me", promptsSinceOwnerWrote: 30 })).toBe(
      "allow",
    );
  });
});
