import { describe, expect, it } from "vitest";
import {
  billingSwitchLine,
  type CardsQuery,
  cardsNeeded,
  groupLine,
  NO_APPROVALS,
  subscriptionOptionsLine,
  updateChangesLine,
} from "../src";

const base: CardsQuery = {
  action: "send",
  mode: "agent",
  relay: "build-box",
  approvals: NO_APPROVALS,
  promptsSinceOwnerWrote: 0,
};
const kinds = (query: Partial<CardsQuery>) => cardsNeeded({ ...base, ...query }).map((card) => card.kind);

describe("approval cards (R-UI-01, DESIGN GAP-04)", () => {
  it("R-UI-01 (a): the first create_session of a conversation asks; Allow covers the later ones", () => {
    const [card] = cardsNeeded({ ...base, action: "create_session", relay: "this-relay" });
    expect(card).toEqual({
      kind: "first_create_session",
      action: "create_session",
      targetRelay: "this-relay",
      targetSession: null,
      text: 'The agent of this conversation wants to start its first session: create_session on relay "this-relay". Allow also covers the sessions it starts later in this conversation.',
      detail: [],
      covers: "conversation",
    });
    expect(kinds({ action: "create_session", approvals: { ...NO_APPROVALS, createSession: true } })).toEqual(
      [],
    );
  });

  it("R-UI-01 (b), R-FEW-24: the first subscribe asks and names the subscription's options", () => {
    const [card] = cardsNeeded({
      ...base,
      action: "subscribe",
      relay: "desk",
      details: {
        subscription: {
          sessions: "all",
          digestMinutes: 30,
          quietHours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
          excludeCount: 1,
        },
      },
    });
    expect(card).toMatchObject({
      kind: "first_subscribe",
      text: 'The agent of this conversation wants to watch sessions for the first time: subscribe to all sessions on relay "desk". Allow also covers its later subscriptions in this conversation.',
      detail: ["digest every 30 min, quiet 23:00–06:00 Europe/Berlin, except 1 it leaves out"],
      covers: "conversation",
    });
    expect(kinds({ action: "subscribe", approvals: { ...NO_APPROVALS, subscribe: true } })).toEqual([]);
  });

  it("R-UI-01 (c): every write action in ask or plan mode asks, reading does not", () => {
    expect(kinds({ action: "stop", mode: "ask" })).toEqual(["write_in_mode"]);
    expect(kinds({ action: "stop", mode: "plan" })).toEqual(["write_in_mode"]);
    expect(kinds({ action: "stop", mode: "agent" })).toEqual([]);
    expect(kinds({ action: "read_session", mode: "plan" })).toEqual([]);
    const [card] = cardsNeeded({
      ...base,
      action: "stop",
      mode: "plan",
      targetSession: { id: "ses_3f9c2a1e", title: "Review: server/" },
    });
    expect(card?.text).toBe(
      'This conversation is in plan mode, so every write action needs your approval: stop on relay "build-box" session ses_3f9c2a1e ("Review: server/").',
    );
  });

  it("R-QCHK-03, R-SCH-16: a question or schedule for another session is a write in ask mode", () => {
    expect(kinds({ action: "ask", mode: "ask", forOtherSession: true })).toEqual(["write_in_mode"]);
    expect(kinds({ action: "ask", mode: "ask", forOtherSession: false })).toEqual([]);
    expect(kinds({ action: "schedule", mode: "ask", forOtherSession: true })).toEqual(["write_in_mode"]);
  });

  it("R-UPD-10: update_session of a session the conversation did not start asks once per conversation and relay", () => {
    const query: Partial<CardsQuery> = {
      action: "update_session",
      relay: "desk",
      targetSession: { id: "ses_3f9c2a1e", title: "Review: server/" },
      targetStartedByCaller: false,
      details: {
        changes: { model: "claude-sonnet-5-5", effort: "low", group: { id: "grp_1", name: "Release 2.4" } },
      },
    };
    expect(cardsNeeded({ ...base, ...query })).toEqual([
      {
        kind: "update_other_session",
        action: "update_session",
        targetRelay: "desk",
        targetSession: "ses_3f9c2a1e",
        text: 'The agent of this conversation wants to change session ses_3f9c2a1e ("Review: server/") on relay "desk", which this conversation did not start. Allow also covers its later changes to such sessions on relay "desk".',
        detail: ["Model: claude-sonnet-5-5 · Effort: low · Group: Release 2.4 (grp_1)"],
        covers: "conversation_and_relay",
      },
    ]);
    expect(kinds({ ...query, approvals: { ...NO_APPROVALS, updateOtherSessions: true } })).toEqual([]);
    expect(kinds({ ...query, targetStartedByCaller: true })).toEqual([]);
  });

  it("R-UPD-09: a target whose starter is unknown counts as not started by the conversation", () => {
    expect(kinds({ action: "update_session" })).toEqual(["update_other_session"]);
  });

  it("R-UPD-12: in ask and plan modes the write card applies in addition", () => {
    expect(kinds({ action: "update_session", mode: "ask", targetStartedByCaller: false })).toEqual([
      "update_other_session",
      "write_in_mode",
    ]);
    expect(kinds({ action: "create_session", mode: "plan" })).toEqual([
      "first_create_session",
      "write_in_mode",
    ]);
  });

  it("R-UPD-06: an update_session that changes nothing asks nobody", () => {
    expect(kinds({ action: "update_session", mode: "ask", details: { changes: {} } })).toEqual([]);
  });

  it("R-XFER-02: transfer_subscriptions always asks, whatever was allowed before", () => {
    const [card] = cardsNeeded({
      ...base,
      action: "transfer_subscriptions",
      relay: "desk",
      approvals: { createSession: true, subscribe: true, updateOtherSessions: true },
      details: { transferFrom: "ses_c0de" },
    });
    expect(card).toMatchObject({
      kind: "transfer_subscriptions",
      text: 'The agent of this conversation wants to take over all the subscriptions of conversation ses_c0de on relay "desk".',
      covers: "call",
    });
  });

  it("GAP-04 (f): the anti-loop card says how many prompts went out and that Allow starts again", () => {
    const cards = cardsNeeded({
      ...base,
      mode: "ask",
      promptsSinceOwnerWrote: 30,
      details: { billingSwitch: "api_key" },
    });
    expect(cards.map((card) => card.kind)).toEqual(["write_in_mode", "anti_loop"]);
    expect(cards[1]).toMatchObject({
      text: 'The agents of this conversation have sent 30 prompts to other agents since you last wrote. Allow this one too (send on relay "build-box")? Allow starts the count again.',
      detail: ["Switches billing to API key"],
      covers: "call",
    });
  });

  it("R-BILL-03, R-CGRP-05, R-UPD-10, R-FEW-24: the detail lines", () => {
    expect(billingSwitchLine("api_key")).toBe("Switches billing to API key");
    expect(billingSwitchLine("subscription")).toBe("Switches billing to subscription");
    expect(groupLine({ id: "grp_7x", name: "Release 2.4" })).toBe("Group: Release 2.4 (grp_7x)");
    expect(groupLine({ id: "grp_7x", name: null })).toBe("Group: grp_7x");
    expect(
      updateChangesLine({
        thinking_enabled: false,
        group: "none",
        model: "m",
        cwd: "/srv/app",
        auto_compact_window: "auto",
        mode: "plan",
        title: "T",
        effort: "high",
        thinking_display: "summarized",
      }),
    ).toBe(
      "Model: m · Effort: high · Mode: plan · Title: T · Group: none · Folder: /srv/app · Window: auto · Thinking: off · Thinking display: summarized",
    );
    expect(updateChangesLine({ group: { id: null, name: "Next" } })).toBe("Group: Next (new)");
    expect(updateChangesLine({})).toBeNull();
    expect(subscriptionOptionsLine({ digestMinutes: 30 })).toBe("digest every 30 min");
    expect(subscriptionOptionsLine({ excludeCount: 2 })).toBe("except 2 it leaves out");
    expect(subscriptionOptionsLine({ sessions: 3 })).toBeNull();
  });

  it("R-UI-08: a create_session card names its group; the same lines go on every card of the call", () => {
    const cards = cardsNeeded({
      ...base,
      action: "create_session",
      mode: "ask",
      details: { group: { id: "grp_1", name: "Release 2.4" } },
    });
    expect(cards.map((card) => card.detail)).toEqual([
      ["Group: Release 2.4 (grp_1)"],
      ["Group: Release 2.4 (grp_1)"],
    ]);
  });
});
