import { ACTIONS, type Mode, type PermissionLevel } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { type Decision, type EvaluateQuery, evaluateCall, type TargetRelay, type UnlockHow } from "../src";

// The whole decision table, written here a second time from the spec and DESIGN (not read back
// from the package): every action (ask and schedule with and without another session) × this
// relay (switch on/off) or a paired relay (level × lock state × Accept prompts) × mode.

type Variant = (typeof ACTIONS)[number] | "ask+session" | "schedule+session";
const VARIANTS: Variant[] = [...ACTIONS, "ask+session", "schedule+session"];

// DESIGN GAP-03 levels; R-QCHK-01 frees the own-conversation ask, list_questions and withdraw;
// R-SCH-03 keeps schedules on this relay.
const NEEDS: Record<Variant, PermissionLevel | "free" | "this relay only"> = {
  list_relays: "none",
  relay_info: "read",
  usage: "read",
  list_sessions: "read",
  read_session: "read",
  read_task_output: "read",
  wait: "read",
  subscribe: "read",
  unsubscribe: "read",
  list_subscriptions: "read",
  send: "prompt",
  answer_question: "prompt",
  "ask+session": "prompt",
  create_session: "full",
  update_session: "full",
  stop: "full",
  archive: "full",
  transfer_subscriptions: "full",
  ask: "free",
  list_questions: "free",
  withdraw: "free",
  schedule: "this relay only",
  "schedule+session": "this relay only",
  list_schedules: "this relay only",
  unschedule: "this relay only",
};

// R-PERM-07 (send, start, answer, stop, archive, subscribe) plus what else modifies or watches:
// update_session, transfer_subscriptions, a question for another session (R-QCHK-03).
const OFF_WHEN_NOT_ACCEPTING = new Set<Variant>([
  "send",
  "create_session",
  "answer_question",
  "stop",
  "archive",
  "subscribe",
  "update_session",
  "transfer_subscriptions",
  "ask+session",
]);

// DESIGN GAP-04's write actions.
const WRITES = new Set<Variant>([
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
  "schedule+session",
  "unschedule",
  "ask+session",
  "withdraw",
]);

const RANK: Record<PermissionLevel, number> = { none: 0, read: 1, prompt: 2, full: 3 };
const MODES: Mode[] = ["agent", "ask", "plan"];
const LEVELS: PermissionLevel[] = ["none", "read", "prompt", "full"];
const UNLOCKS: (UnlockHow | null)[] = [null, "agent", "mention"];

interface Case {
  readonly relay: TargetRelay;
  readonly accepts: boolean;
  readonly mode: Mode;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const mode of MODES) {
    for (const enabled of [true, false]) {
      out.push({ relay: { kind: "self", name: "desk", agentSessionsEnabled: enabled }, accepts: true, mode });
    }
    for (const level of LEVELS) {
      for (const unlock of UNLOCKS) {
        for (const accepts of [true, false]) {
          out.push({ relay: { kind: "paired", name: "build-box", level, unlock }, accepts, mode });
        }
      }
    }
  }
  return out;
}

type Expected =
  | { readonly kind: "allow" }
  | { readonly kind: "refuse"; readonly code: string }
  | { readonly kind: "ask"; readonly cards: readonly string[] };

function expectedDecision(variant: Variant, c: Case): Expected {
  if (variant === "list_relays") {
    return { kind: "allow" };
  }
  const needs = NEEDS[variant];
  const { relay } = c;
  if (relay.kind === "self") {
    if (needs !== "free" && !relay.agentSessionsEnabled) {
      return { kind: "refuse", code: "REMOTE_RELAY_PERMISSION" };
    }
  } else if (needs === "this relay only") {
    return { kind: "refuse", code: "REMOTE_RELAY_UNSUPPORTED" };
  } else if (needs !== "free") {
    if (relay.unlock === null) {
      return { kind: "refuse", code: "REMOTE_RELAY_LOCKED" };
    }
    if (RANK[relay.level] < RANK[needs]) {
      return { kind: "refuse", code: "REMOTE_RELAY_PERMISSION" };
    }
    if (!c.accepts && OFF_WHEN_NOT_ACCEPTING.has(variant)) {
      return { kind: "refuse", code: "REMOTE_RELAY_PERMISSION" };
    }
  }
  const cards: string[] = [];
  if (variant === "transfer_subscriptions") {
    cards.push("transfer_subscriptions");
  }
  if (c.mode !== "agent" && WRITES.has(variant)) {
    cards.push("write_in_mode");
  }
  return cards.length === 0 ? { kind: "allow" } : { kind: "ask", cards };
}

function query(variant: Variant, c: Case): EvaluateQuery {
  const [action, withSession] = variant.endsWith("+session")
    ? [variant.slice(0, -"+session".length) as "ask" | "schedule", true]
    : [variant as (typeof ACTIONS)[number], false];
  const actsOnSession = ["send", "wait", "stop", "archive", "update_session", "read_session"].includes(
    action,
  );
  return {
    action,
    ...(withSession || actsOnSession ? { session: "ses_other" } : {}),
    ...(action === "answer_question" ? { questionId: "q_other" } : {}),
    caller: {
      session: "ses_caller",
      mode: c.mode,
      inTurn: true,
      startedByAgent: false,
      mayCreateSessions: false,
      turnHops: 0,
    },
    relay: c.relay,
    acceptsPromptsFromOtherRelays: c.accepts,
    target: { id: "ses_other", startedByCaller: true, busy: false },
    activeStartedSessions: 0,
    approvals: { createSession: true, subscribe: true, updateOtherSessions: true },
    promptsSinceOwnerWrote: 0,
  };
}

function summary(decision: Decision): Expected {
  if (decision.kind === "ask") {
    return { kind: "ask", cards: decision.cards.map((card) => card.kind) };
  }
  return decision.kind === "refuse" ? { kind: "refuse", code: decision.code } : { kind: "allow" };
}

describe("the decision table, every action × relay × level × lock × Accept prompts × mode", () => {
  const all = cases();

  it("covers 25 call variants × 78 relay states and modes", () => {
    expect(VARIANTS).toHaveLength(25);
    expect(all).toHaveLength(3 * (2 + 4 * 3 * 2));
  });

  for (const variant of VARIANTS) {
    it(`${variant}: R-RLY-02, R-LOCK-04, R-PERM-03/04/07/08, R-SCH-03, R-QCHK-01, GAP-02/03/04 (c)(e)`, () => {
      for (const c of all) {
        const label = `${variant} on ${JSON.stringify(c)}`;
        expect(summary(evaluateCall(query(variant, c))), label).toEqual(expectedDecision(variant, c));
      }
    });
  }

  it("R-LOCK-04: a locked relay's refusal tells the agent to ask the user to mention it", () => {
    const decision = evaluateCall(
      query("read_session", {
        relay: { kind: "paired", name: "build-box", level: "full", unlock: null },
        accepts: true,
        mode: "agent",
      }),
    );
    expect(decision).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_LOCKED",
      message:
        'Relay "build-box" is locked in this conversation. Ask the user to mention it in a message (by its name or host, or as @build-box); it then stays unlocked for the rest of the conversation. Only list_relays works on a locked relay.',
    });
  });

  it("GAP-03: a level too low names the level needed", () => {
    const decision = evaluateCall(
      query("send", {
        relay: { kind: "paired", name: "build-box", level: "read", unlock: "mention" },
        accepts: true,
        mode: "agent",
      }),
    );
    expect(decision).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_PERMISSION",
      message:
        'Relay "build-box" is paired with Agents may "Read"; send needs at least "Read and prompt". Only the user can raise it, under Settings → Relays.',
    });
  });

  it("R-PERM-07: Accept prompts off names the setting and what still works", () => {
    const decision = evaluateCall(
      query("subscribe", {
        relay: { kind: "paired", name: "build-box", level: "full", unlock: "agent" },
        accepts: false,
        mode: "agent",
      }),
    );
    expect(decision).toMatchObject({
      kind: "refuse",
      code: "REMOTE_RELAY_PERMISSION",
      message:
        'Relay "build-box" does not accept prompts from other relays\' agents (its setting "Accept prompts from other relays\' agents" is off), so subscribe is disabled there. Listing and reading sessions, reading task output, waiting, relay_info and usage still work.',
    });
  });

  it("R-SCH-03: a schedule action naming a paired relay is REMOTE_RELAY_UNSUPPORTED", () => {
    const decision = evaluateCall(
      query("list_schedules", {
        relay: { kind: "paired", name: "build-box", level: "full", unlock: "mention" },
        accepts: true,
        mode: "agent",
      }),
    );
    expect(decision).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_UNSUPPORTED",
      message:
        'Schedules are kept by the relay the agent runs on, so list_schedules cannot name relay "build-box": omit relay, or pass "this".',
    });
  });

  it("GAP-02: with agent sessions off, this relay refuses with the engine's message", () => {
    const decision = evaluateCall(
      query("list_sessions", {
        relay: { kind: "self", name: "desk", agentSessionsEnabled: false },
        accepts: true,
        mode: "agent",
      }),
    );
    expect(decision).toEqual({
      kind: "refuse",
      code: "REMOTE_RELAY_PERMISSION",
      message:
        'Agents may not use sessions on relay "desk": the owner\'s setting "Agents may start and use sessions on this relay" is off.',
    });
  });
});
