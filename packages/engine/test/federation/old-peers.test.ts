import { RelayError } from "@oar/core";
import { createSequentialIdGenerator } from "@oar/core/testing";
import {
  PEER_FEATURES,
  type PeerInfo,
  type PeerToolRequest,
  type RelayToolResultEnvelope,
} from "@oar/schema";
import { describe, expect, it, onTestFinished } from "vitest";
import { createEngine } from "../../src/create-engine";
import { PEER_STATUS_TTL_MS } from "../../src/pairing/peer-status";
import type { PeerLink } from "../../src/ports/peer-link";
import type { ToolResult } from "../../src/ports/tool-result";
import { createTestProvider, openTestStores } from "../../src/testing";
import { RELAY, refusal, settle, T0, testClock, track } from "../actions/harness";

// R-RTO-08, R-BILL-05, R-CGRP-07(d), R-UPD-28, R-QCHK-06, R-PAIR-05 (DESIGN §4 `features`): a
// paired relay that does not list a call's feature in GET /v1/peer/info never receives that call.

const OLD: PeerInfo = { name: "build-box", version: "0.9.11", features: [] };
const CURRENT: PeerInfo = { name: "build-box", version: "0.9.19", features: [...PEER_FEATURES] };

/** A paired relay that answers GET /v1/peer/info with `info` and counts every POST /v1/peer/tool. */
function fakePeer(initial: PeerInfo | RelayError) {
  const state = { info: initial, infoRequests: 0 };
  const toolRequests: PeerToolRequest[] = [];
  const link: PeerLink = {
    async info() {
      state.infoRequests++;
      if (state.info instanceof RelayError) {
        throw state.info;
      }
      return state.info;
    },
    async tool(_peer, request) {
      toolRequests.push(request);
      if (state.info instanceof RelayError) {
        throw state.info;
      }
      const action = String(request.call.action);
      return {
        ok: true,
        relay: "build-box",
        summary: `${action} → build-box`,
        ignored: [],
        ...(action === "list_sessions" ? { sessions: [] } : {}),
      } as RelayToolResultEnvelope;
    },
    async subscriptionEvents() {
      throw new RelayError("REMOTE_RELAY_UNSUPPORTED", "no such route");
    },
    async question() {
      throw new RelayError("REMOTE_RELAY_UNSUPPORTED", "no such route");
    },
  };
  return {
    link,
    toolRequests,
    infoRequests: () => state.infoRequests,
    answer(info: PeerInfo | RelayError) {
      state.info = info;
    },
  };
}

/** desk, paired with the fake build-box at Full; its Planner conversation has build-box unlocked and is in a turn. */
async function deskPairedWith(info: PeerInfo | RelayError, options: { readonly mode?: "ask" } = {}) {
  const clock = testClock(T0);
  const stores = await openTestStores();
  const provider = createTestProvider();
  const peer = fakePeer(info);
  const engine = createEngine({
    stores,
    providers: [provider],
    clock,
    ids: createSequentialIdGenerator(),
    relay: RELAY,
    approvalCards: true,
    peerLink: peer.link,
  });
  await engine.start();
  onTestFinished(async () => {
    provider.release();
    await engine.close();
  });
  await engine.owner.createPeer({
    name: "build-box",
    url: "https://build-box.test",
    token: "invite",
    level: "full",
  });
  const newSession = (id: string, title: string) =>
    stores.sessions.createSession({ id, title, provider: "test", model: "test-1", createdAt: clock.now() });
  const caller = await newSession("ses_planner", "Planner");
  const other = await newSession("ses_other", "Other");
  if (options.mode !== undefined) {
    await engine.owner.patchSession(caller.id, { mode: options.mode });
  }
  await engine.owner.postMessage(caller.id, "work on build-box");
  await settle();
  provider.hold();
  await engine.owner.postMessage(caller.id, "hold");
  await settle();

  /** Runs the call and lets it go as far as it goes: it must end without waiting on a card. */
  const call = async (input: Record<string, unknown>): Promise<ToolResult> => {
    const running = track(engine.execute(caller.id, { relay: "build-box", ...input }));
    await settle(30);
    const cards = await stores.cards.listCards({ status: "pending" });
    expect(running.settled(), `still waiting, with cards ${JSON.stringify(cards)}`).toBe(true);
    return running.promise;
  };
  const unchanged = async () => {
    expect(await stores.cards.listCards({ status: "pending" })).toEqual([]);
    expect(await stores.subscriptions.listMirrors({ relay: "build-box" })).toEqual([]);
    expect(await stores.questions.listInboxQuestions({ closedSince: null })).toEqual([]);
  };
  return { clock, peer, engine, caller, other, call, unchanged };
}

/** Every gated call, as an agent makes it, with the feature it needs and the rule that says so. */
const GATED: readonly (readonly [string, string, string, Record<string, unknown>])[] = [
  [
    "R-RTO-08",
    "read_task_output",
    "read_task_output",
    { action: "read_task_output", session: "ses_b1", task_id: "b7k2" },
  ],
  [
    "R-BILL-05",
    "billing_switch",
    "switching billing with send",
    { action: "send", session: "ses_b1", text: "go on", provider: "claude-api", wait_seconds: 0 },
  ],
  [
    "R-CGRP-07(d)",
    "create_session_group",
    "groups on create_session",
    { action: "create_session", text: "Run the checklist.", group: "Release 2.4", wait_seconds: 0 },
  ],
  [
    "R-UPD-28",
    "update_session",
    "update_session",
    { action: "update_session", session: "ses_b1", title: "x" },
  ],
  [
    "R-QCHK-06",
    "session_questions",
    "non-blocking questions about its sessions",
    { action: "ask", session: "ses_b1", question: "Ship tonight?" },
  ],
  [
    "R-QCHK-06",
    "session_questions",
    "non-blocking questions about its sessions",
    { action: "list_questions" },
  ],
  [
    "R-QCHK-06",
    "session_questions",
    "non-blocking questions about its sessions",
    { action: "withdraw", question_id: "ask_1" },
  ],
  ["R-PAIR-05", "subscriptions", "subscriptions", { action: "subscribe", sessions: ["ses_b1"] }],
  ["R-PAIR-05", "subscriptions", "subscriptions", { action: "unsubscribe", subscription_id: "all" }],
  ["R-PAIR-05", "subscriptions", "subscriptions", { action: "list_subscriptions" }],
  ["R-PAIR-05", "subscriptions", "subscriptions", { action: "transfer_subscriptions", from: "ses_other" }],
];

describe("a paired relay too old for a call (DESIGN §4 features)", () => {
  it.each(GATED)(
    "%s: %s is needed; a relay without it gets REMOTE_RELAY_UNSUPPORTED for %s, nothing is sent, nothing changes",
    async (_rule, feature, what, input) => {
      const desk = await deskPairedWith(OLD);
      const result = await desk.call(input);
      expect(refusal(result)).toEqual({
        code: "REMOTE_RELAY_UNSUPPORTED",
        error: `The target relay doesn't support ${what} yet: relay "build-box" (version 0.9.11) does not list "${feature}" among its features (GET /v1/peer/info), so it needs an update. Nothing was sent there.${
          "provider" in input
            ? " send without provider still works there."
            : "group" in input
              ? " create_session without group still works there."
              : ""
        }`,
      });
      expect(desk.peer.toolRequests).toEqual([]);
      await desk.unchanged();
      // An ungated call still goes there.
      expect(await desk.call({ action: "list_sessions" })).toMatchObject({ ok: true, relay: "build-box" });
      expect(desk.peer.toolRequests.map((request) => request.call.action)).toEqual(["list_sessions"]);
    },
  );

  it("R-BILL-05, R-CGRP-04: only the argument is gated — the same send without provider, or a create_session with an empty group, goes there", async () => {
    const desk = await deskPairedWith(OLD);
    const send = { action: "send", session: "ses_b1", text: "go on", wait_seconds: 0 };
    expect(refusal(await desk.call({ ...send, provider: "claude" })).code).toBe("REMOTE_RELAY_UNSUPPORTED");
    expect(refusal(await desk.call({ ...send, provider: "claude", model: "x" })).code).toBe(
      "REMOTE_RELAY_UNSUPPORTED",
    );
    expect(desk.peer.toolRequests).toEqual([]);
    expect(await desk.call({ ...send, provider: "" })).toMatchObject({ ok: true });
    expect(desk.peer.toolRequests.map((request) => request.call)).toEqual([
      { ...send, relay: "this", provider: "" },
    ]);
  });

  it("R-UPD-28, R-BILL-05: the refusal comes before any approval card (ask mode would ask for both)", async () => {
    const desk = await deskPairedWith(OLD, { mode: "ask" });
    expect(refusal(await desk.call({ action: "update_session", session: "ses_b1", title: "x" })).code).toBe(
      "REMOTE_RELAY_UNSUPPORTED",
    );
    expect(
      refusal(await desk.call({ action: "send", session: "ses_b1", text: "hi", provider: "claude" })).code,
    ).toBe("REMOTE_RELAY_UNSUPPORTED");
    await desk.unchanged();
    expect(desk.peer.toolRequests).toEqual([]);
  });

  it("R-RTO-08: once the relay lists the feature (after an update), the call goes there, again and again", async () => {
    const desk = await deskPairedWith(OLD);
    const read = { action: "read_task_output", session: "ses_b1", task_id: "b7k2" };
    expect(refusal(await desk.call(read)).code).toBe("REMOTE_RELAY_UNSUPPORTED");
    desk.peer.answer(CURRENT);
    // What it said stands for PEER_STATUS_TTL_MS; then it is asked again.
    await desk.clock.advanceAsync(PEER_STATUS_TTL_MS);
    expect(await desk.call(read)).toMatchObject({ ok: true });
    expect(await desk.call(read)).toMatchObject({ ok: true });
    expect(desk.peer.toolRequests.map((request) => request.call.action)).toEqual([
      "read_task_output",
      "read_task_output",
    ]);
  });
});

describe("a paired relay that has never said what it supports", () => {
  it("R-CGRP-07(d), R-ERR-04: while it does not answer, a gated call gets its usual code (REMOTE_RELAY_UNREACHABLE) and is not sent", async () => {
    const desk = await deskPairedWith(new RelayError("NETWORK", "connect ECONNREFUSED", { retryable: true }));
    const result = await desk.call({ action: "update_session", session: "ses_b1", title: "x" });
    expect(refusal(result)).toEqual({
      code: "REMOTE_RELAY_UNREACHABLE",
      error:
        'Relay "build-box" has never said which features it supports: it does not answer (connect ECONNREFUSED). This relay cannot tell whether it supports update_session, so nothing was sent there; try again once it answers.',
    });
    expect(desk.peer.toolRequests).toEqual([]);
    await desk.unchanged();
  });

  it("R-ERR-04: one that refuses this relay's token gets REMOTE_RELAY_AUTH, nothing sent", async () => {
    const desk = await deskPairedWith(new RelayError("REMOTE_RELAY_AUTH", "refused"));
    const result = await desk.call({ action: "subscribe", sessions: ["ses_b1"] });
    expect(refusal(result).code).toBe("REMOTE_RELAY_AUTH");
    expect(desk.peer.toolRequests).toEqual([]);
    await desk.unchanged();
  });

  it("R-UPD-28, R-PAIR-05: it is asked at once before a gated call: answering as an old relay, the call is REMOTE_RELAY_UNSUPPORTED; as a current one, it goes", async () => {
    const desk = await deskPairedWith(new RelayError("NETWORK", "connect ECONNREFUSED", { retryable: true }));
    desk.peer.answer(OLD);
    const asked = desk.peer.infoRequests();
    expect(refusal(await desk.call({ action: "update_session", session: "ses_b1", title: "x" })).code).toBe(
      "REMOTE_RELAY_UNSUPPORTED",
    );
    expect(desk.peer.infoRequests()).toBe(asked + 1);
    expect(desk.peer.toolRequests).toEqual([]);

    // What it said stands for PEER_STATUS_TTL_MS; then it is asked again.
    desk.peer.answer(CURRENT);
    await desk.clock.advanceAsync(PEER_STATUS_TTL_MS);
    expect(await desk.call({ action: "list_subscriptions" })).toMatchObject({ ok: true });
    expect(desk.peer.toolRequests.map((request) => request.call.action)).toEqual(["list_subscriptions"]);
  });
});
