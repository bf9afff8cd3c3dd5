import { describe, expect, it } from "vitest";
import {
  ACTIONS,
  actionArgsSchemas,
  actionMeta,
  type ErrorEnvelope,
  ErrorEnvelopeSchema,
  isWriteCall,
  type ParsedCall,
  parseCall,
  type RelayToolCall,
} from "../src/index";

function accepted(result: ParsedCall): { call: RelayToolCall; ignored: string[] } {
  if (!result.ok) {
    throw new Error(`refused: ${result.envelope.error}`);
  }
  return result;
}

function refused(result: ParsedCall): ErrorEnvelope {
  if (result.ok) {
    throw new Error(`accepted: ${JSON.stringify(result.call)}`);
  }
  expect(ErrorEnvelopeSchema.parse(result.envelope)).toEqual(result.envelope);
  return result.envelope;
}

const CREATE_ARGS =
  "relay, text, provider, model, cwd, repo, branch, mode, effort, title, group, wait_seconds";
const UPDATE_ARGS =
  "relay, session, model, effort, mode, title, group, cwd, auto_compact_window, thinking_enabled, thinking_display";
const OWNER_ONLY = "Whether a session may start sessions is the owner's setting alone.";

describe("actions", () => {
  it("R-OVW-05: there are exactly the 23 actions the spec names, each with an argument schema", () => {
    expect(ACTIONS).toHaveLength(23);
    expect(new Set(ACTIONS).size).toBe(23);
    expect(Object.keys(actionArgsSchemas).sort()).toEqual([...ACTIONS].sort());
  });

  it("R-CALL-01: a call without action is refused and lists the 23 actions", () => {
    const envelope = refused(parseCall({ relay: "this" }));
    expect(envelope.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    for (const action of ACTIONS) {
      expect(envelope.error).toContain(action);
    }
  });

  it("R-CALL-01: an empty action counts as missing (R-CALL-09)", () => {
    expect(refused(parseCall({ action: "" })).error).toMatch(/^action is required/);
    expect(refused(parseCall({ action: null })).error).toMatch(/^action is required/);
  });

  it("R-CALL-01: an unknown action is refused with the valid ones, and a near spelling is suggested", () => {
    const envelope = refused(parseCall({ action: "delete_session", relay: "this" }));
    expect(envelope.error).toBe(`Unknown action "delete_session". Valid actions: ${ACTIONS.join(", ")}.`);
    expect(refused(parseCall({ action: "Read-Session" })).error).toContain("Did you mean read_session?");
  });

  it("R-CALL-01: a non-string action is refused", () => {
    expect(refused(parseCall({ action: 3 })).error).toMatch(/^action must be a string, one of: list_relays,/);
    expect(refused(parseCall({ action: ["send"] })).error).toContain("(got a list)");
  });

  it("R-CALL-02: input that is not a JSON object is refused with a clear message", () => {
    for (const input of [null, undefined, 1, "send", true, [], [{ action: "list_relays" }]]) {
      const envelope = refused(parseCall(input));
      expect(envelope.code).toBe("REMOTE_RELAY_INVALID_INPUT");
      expect(envelope.error).toMatch(/^relay_tool takes a JSON object with an action \(got /);
    }
  });
});

describe("empty values (R-CALL-09)", () => {
  it("R-CALL-09: null, '', false and [] count as absent", () => {
    const { call, ignored } = accepted(
      parseCall({
        action: "send",
        relay: "this",
        session: "s1",
        text: "hi",
        mode: null,
        model: "",
        effort: false,
        provider: [],
      }),
    );
    expect(call).toEqual({ action: "send", relay: "this", session: "s1", text: "hi", wait_seconds: 60 });
    expect(ignored).toEqual([]);
  });

  it("R-CALL-09: an empty required argument is reported as missing", () => {
    expect(refused(parseCall({ action: "stop", relay: "this", session: "" })).error).toBe(
      "session is required",
    );
  });

  it("R-CALL-09: an unknown argument with an empty value is neither refused nor listed", () => {
    const empties = { a: null, b: "", c: false, d: [] };
    expect(accepted(parseCall({ action: "usage", relay: "this", ...empties })).ignored).toEqual([]);
    expect(
      accepted(parseCall({ action: "create_session", relay: "this", text: "go", ...empties })).call,
    ).toEqual({
      action: "create_session",
      relay: "this",
      text: "go",
      wait_seconds: 60,
    });
    expect(
      parseCall({ action: "update_session", relay: "this", session: "s", model: "m", ...empties }).ok,
    ).toBe(true);
  });

  it("R-CALL-09: 0 is a value, not an empty one (wait_seconds 0 = do not wait, R-WST-07)", () => {
    expect(
      accepted(parseCall({ action: "wait", relay: "this", session: "s", wait_seconds: 0 })).call,
    ).toMatchObject({
      wait_seconds: 0,
    });
  });

  it("R-FEW-17: a quiet_hours whose fields are all empty counts as none", () => {
    for (const quiet_hours of [{}, { from: "", to: "", tz: "" }, { from: null, to: null, tz: null }]) {
      const { call } = accepted(parseCall({ action: "subscribe", sessions: ["all"], quiet_hours }));
      expect(call).not.toHaveProperty("quiet_hours");
    }
  });
});

describe("unknown arguments", () => {
  it("R-CALL-07: create_session refuses an argument it does not take, with the spec's exact message", () => {
    const envelope = refused(
      parseCall({ action: "create_session", relay: "this", text: "go", session: "3f9c" }),
    );
    expect(envelope.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(envelope.error).toBe(
      `create_session does not take: session. Its arguments: ${CREATE_ARGS}. Nothing was created.`,
    );
  });

  it("R-CALL-07: several unknown names are listed comma-separated in input order", () => {
    const envelope = refused(
      parseCall({ zeta: 1, action: "create_session", relay: "this", text: "go", alpha: "x", session: "s" }),
    );
    expect(envelope.error).toBe(
      `create_session does not take: zeta, alpha, session. Its arguments: ${CREATE_ARGS}. Nothing was created.`,
    );
  });

  it("R-CALL-07: the refusal wins over bad values, so nothing is half-checked", () => {
    const envelope = refused(
      parseCall({ action: "create_session", relay: "this", wait_seconds: -5, foo: 1 }),
    );
    expect(envelope.error).toMatch(/^create_session does not take: foo\./);
  });

  it("R-CALL-07/GAP-09: update_session refuses an argument it does not take, with its own message", () => {
    const envelope = refused(
      parseCall({ action: "update_session", relay: "this", session: "s", text: "hi" }),
    );
    expect(envelope.error).toBe(
      `update_session does not take: text. Its arguments: ${UPDATE_ARGS}. Nothing was changed.`,
    );
  });

  it("R-UPD-03: mayCreateSessions, in any spelling, is refused as the owner's setting", () => {
    for (const name of [
      "mayCreateSessions",
      "may_create_sessions",
      "MAY_CREATE_SESSIONS",
      "maycreatesessions",
    ]) {
      const envelope = refused(
        parseCall({ action: "update_session", relay: "this", session: "s", [name]: true }),
      );
      expect(envelope.error).toBe(
        `update_session does not take: ${name}. Its arguments: ${UPDATE_ARGS}. Nothing was changed. ${OWNER_ONLY}`,
      );
    }
    const create = refused(
      parseCall({ action: "create_session", relay: "this", text: "go", mayCreateSessions: true }),
    );
    expect(create.error).toMatch(new RegExp(`Nothing was created\\. ${OWNER_ONLY.replace(/\./g, "\\.")}$`));
  });

  it("R-UPD-03: mayCreateSessions: false is empty, so it is neither refused nor a setting", () => {
    const envelope = refused(
      parseCall({ action: "update_session", relay: "this", session: "s", mayCreateSessions: false }),
    );
    expect(envelope.error).toMatch(/^update_session needs at least one setting/);
  });

  it("R-CALL-08: every other action runs and lists what it did not take in ignored, in input order", () => {
    for (const action of ACTIONS.filter((name) => name !== "create_session" && name !== "update_session")) {
      const schema = actionArgsSchemas[action];
      const names = Object.keys(schema.shape);
      const extra = names.includes("zz_extra") ? "zz_extra2" : "zz_extra";
      const result = parseCall({ action, [extra]: 1, also_unknown: "x" });
      if (result.ok) {
        expect(result.ignored).toEqual([extra, "also_unknown"]);
      } else {
        // Missing required arguments are refused, but the envelope still says what was ignored.
        expect(result.envelope.ignored).toEqual([extra, "also_unknown"]);
      }
    }
  });

  it("R-CALL-08: ignored holds at most 20 entries (21 unknown arguments)", () => {
    const extras = Object.fromEntries(
      Array.from({ length: 21 }, (_, index) => [`extra_${index + 1}`, index + 1]),
    );
    const { ignored } = accepted(parseCall({ action: "list_relays", ...extras }));
    expect(ignored).toHaveLength(20);
    expect(ignored[0]).toBe("extra_1");
    expect(ignored[19]).toBe("extra_20");
  });

  it("R-CALL-08: exactly 20 unknown arguments are all listed", () => {
    const extras = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`extra_${index}`, "x"]));
    expect(accepted(parseCall({ action: "usage", relay: "this", ...extras })).ignored).toHaveLength(20);
  });

  it("R-CALL-06: an argument of another action is not silently dropped either", () => {
    const { ignored } = accepted(
      parseCall({ action: "read_session", relay: "this", session: "s", lines: 10 }),
    );
    expect(ignored).toEqual(["lines"]);
  });

  it("R-CALL-06: a very long unknown name is cut in ignored, never dropped", () => {
    const name = "x".repeat(300);
    const { ignored } = accepted(parseCall({ action: "list_relays", [name]: 1 }));
    expect(ignored).toEqual([`${"x".repeat(100)}…`]);
  });
});

describe("value errors (R-CALL-04, GAP-21)", () => {
  it("R-CALL-04: a bad value names the field and why, not zod's raw text", () => {
    const envelope = refused(
      parseCall({ action: "read_task_output", relay: "this", session: "s", task_id: "t", lines: 501 }),
    );
    expect(envelope).toEqual({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: "lines must be at most 500 (got 501)",
    });
  });

  it("R-CALL-04: several bad values are all named, once each", () => {
    const envelope = refused(
      parseCall({ action: "send", relay: "this", session: "s", text: "  ", wait_seconds: 1.5, mode: "yolo" }),
    );
    expect(envelope.error).toBe(
      'text must not be blank; wait_seconds must be a whole number (got 1.5); mode must be one of agent, ask, plan (got "yolo")',
    );
  });

  it("R-CALL-04: the type of a wrong value is named", () => {
    expect(refused(parseCall({ action: "read_session", relay: "this", session: "s", last: "5" })).error).toBe(
      "last must be a number (got a string)",
    );
    expect(refused(parseCall({ action: "subscribe", sessions: ["all"], once: "yes" })).error).toBe(
      "once must be true or false (got a string)",
    );
    expect(refused(parseCall({ action: "subscribe", sessions: ["all", 5] })).error).toBe(
      "sessions[1] must be a string (got 5)",
    );
  });

  it("R-CALL-04: a refusal for bad values still reports the ignored arguments", () => {
    const envelope = refused(
      parseCall({ action: "read_session", relay: "this", session: "s", last: 0, foo: 1 }),
    );
    expect(envelope.ignored).toEqual(["foo"]);
    expect(envelope.error).toBe("last must be at least 1 (got 0)");
  });

  it("R-UPD-02: update_session needs at least one setting", () => {
    expect(refused(parseCall({ action: "update_session", relay: "this", session: "s" })).error).toBe(
      "update_session needs at least one setting to change: model, effort, mode, title, group, cwd, auto_compact_window, thinking_enabled, thinking_display. Nothing was changed.",
    );
  });

  it("R-ANS-03: answer_question needs choices or answer", () => {
    expect(refused(parseCall({ action: "answer_question", relay: "this", question_id: "q" })).error).toBe(
      "answer_question needs choices or answer (or both)",
    );
    expect(
      parseCall({ action: "answer_question", relay: "this", question_id: "q", choices: ["A"], answer: "B" })
        .ok,
    ).toBe(true);
  });

  it("R-SCH-05: schedule needs at least one of at and every_minutes", () => {
    expect(refused(parseCall({ action: "schedule", title: "t", text: "x" })).error).toBe(
      "schedule needs at (when to fire) or every_minutes (how often to repeat), or both",
    );
  });

  it("R-FEW-19: exclude with a list of sessions is refused with the spec's message", () => {
    expect(refused(parseCall({ action: "subscribe", sessions: ["a"], exclude: ["b"] })).error).toBe(
      'exclude goes with sessions ["all"] only; a list of sessions names what it watches.',
    );
    expect(parseCall({ action: "subscribe", sessions: ["all"], exclude: ["b"] }).ok).toBe(true);
  });
});

describe("relay (R-RLY-*)", () => {
  it('R-RLY-04: the subscription, schedule and question actions default relay to "this"', () => {
    const defaulted = ACTIONS.filter((action) => actionMeta[action].relayDefaultsToThis);
    expect(defaulted).toEqual([
      "subscribe",
      "unsubscribe",
      "list_subscriptions",
      "transfer_subscriptions",
      "schedule",
      "list_schedules",
      "unschedule",
      "ask",
      "list_questions",
      "withdraw",
    ]);
    const { call } = accepted(parseCall({ action: "list_questions" }));
    expect(call).toEqual({ action: "list_questions", relay: "this" });
  });

  it("R-RLY-06: every other action except list_relays needs relay", () => {
    for (const action of ACTIONS.filter(
      (name) => !actionMeta[name].relayDefaultsToThis && name !== "list_relays",
    )) {
      const envelope = refused(parseCall({ action }));
      expect(envelope.error).toContain('relay is required: "this" for this relay');
    }
  });

  it("R-LREL-03: list_relays takes no relay; one given is listed in ignored", () => {
    expect(accepted(parseCall({ action: "list_relays", relay: "this" })).ignored).toEqual(["relay"]);
  });
});

describe("action metadata (GAP-03, GAP-04)", () => {
  it("GAP-04: the write actions are exactly DESIGN's list, ask only with a session", () => {
    const always = ACTIONS.filter((action) => actionMeta[action].write === "always");
    expect(always).toEqual([
      "send",
      "create_session",
      "update_session",
      "answer_question",
      "stop",
      "archive",
      "subscribe",
      "unsubscribe",
      "transfer_subscriptions",
      "schedule",
      "unschedule",
      "withdraw",
    ]);
    const ask = (extra: object) => accepted(parseCall({ action: "ask", question: "Q?", ...extra })).call;
    expect(isWriteCall(ask({}))).toBe(false);
    expect(isWriteCall(ask({ session: "s" }))).toBe(true);
  });

  it("GAP-03: the minimum levels follow DESIGN", () => {
    const byLevel = (level: string) => ACTIONS.filter((action) => actionMeta[action].minLevel === level);
    expect(byLevel("none")).toEqual(["list_relays"]);
    expect(byLevel("read")).toEqual([
      "relay_info",
      "usage",
      "list_sessions",
      "read_session",
      "read_task_output",
      "wait",
      "subscribe",
      "unsubscribe",
      "list_subscriptions",
      "list_questions",
    ]);
    expect(byLevel("prompt")).toEqual(["send", "answer_question", "ask", "withdraw"]);
    expect(byLevel("full")).toEqual([
      "create_session",
      "update_session",
      "stop",
      "archive",
      "transfer_subscriptions",
      "schedule",
      "list_schedules",
      "unschedule",
    ]);
  });

  it("R-SCH-03: only the schedule actions are this-relay-only", () => {
    expect(ACTIONS.filter((action) => actionMeta[action].thisRelayOnly)).toEqual([
      "schedule",
      "list_schedules",
      "unschedule",
    ]);
  });
});

describe("defaults (GAP-05)", () => {
  it("GAP-05: last 20, lines 50, wait_seconds 60, scope active, stalled_minutes 15, once false", () => {
    const parse = (input: object) => accepted(parseCall(input)).call;
    expect(parse({ action: "read_session", relay: "r", session: "s" })).toMatchObject({ last: 20 });
    expect(parse({ action: "read_task_output", relay: "r", session: "s", task_id: "t" })).toMatchObject({
      lines: 50,
    });
    expect(parse({ action: "send", relay: "r", session: "s", text: "x" })).toMatchObject({
      wait_seconds: 60,
    });
    expect(parse({ action: "create_session", relay: "r", text: "x" })).toMatchObject({ wait_seconds: 60 });
    expect(parse({ action: "wait", relay: "r", session: "s" })).toMatchObject({ wait_seconds: 60 });
    expect(parse({ action: "list_sessions", relay: "r" })).toMatchObject({ scope: "active" });
    expect(parse({ action: "subscribe", sessions: ["all"] })).toMatchObject({
      stalled_minutes: 15,
      once: false,
    });
  });

  it("R-EVT-01: subscribe leaves events absent when none are named, so the relay's default applies", () => {
    expect(accepted(parseCall({ action: "subscribe", sessions: ["all"] })).call).not.toHaveProperty("events");
  });

  it("R-WST-03: a wait longer than any relay allows is not refused here (the engine caps it)", () => {
    expect(
      accepted(parseCall({ action: "wait", relay: "r", session: "s", wait_seconds: 86_400 })).call,
    ).toMatchObject({
      wait_seconds: 86_400,
    });
  });
});

describe("update_session values (GAP-08, R-UPD-07/08)", () => {
  const update = (extra: object) =>
    parseCall({ action: "update_session", relay: "this", session: "s", ...extra });

  it('GAP-08: group "none", in any case, takes the session out of its group', () => {
    for (const group of ["none", "None", "NONE"]) {
      expect(accepted(update({ group })).call).toMatchObject({ group: "none" });
    }
    expect(accepted(update({ group: "Release 2.4" })).call).toMatchObject({ group: "Release 2.4" });
  });

  it('R-CALL-09: thinking_enabled false is absent; "off" turns thinking off, true/"on" turns it on', () => {
    expect(accepted(update({ thinking_enabled: "off" })).call).toMatchObject({ thinking_enabled: false });
    expect(accepted(update({ thinking_enabled: "on" })).call).toMatchObject({ thinking_enabled: true });
    expect(accepted(update({ thinking_enabled: true })).call).toMatchObject({ thinking_enabled: true });
    expect(refused(update({ thinking_enabled: "no" })).error).toBe(
      'thinking_enabled must be true, "on" or "off" (got "no"); false counts as absent, so send "off" to turn thinking off',
    );
  });

  it('R-UPD-08: auto_compact_window takes "auto" or tokens, 0 included', () => {
    expect(accepted(update({ auto_compact_window: "auto" })).call).toMatchObject({
      auto_compact_window: "auto",
    });
    expect(accepted(update({ auto_compact_window: 0 })).call).toMatchObject({ auto_compact_window: 0 });
  });
});
