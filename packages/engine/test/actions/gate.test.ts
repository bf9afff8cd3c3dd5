import type { RelayToolCall } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { CARD_POLL_MS, localGate } from "../../src/actions/approvals";
import { type ActionContext, callerProfileOf } from "../../src/actions/context";
import { createEngineLive } from "../../src/live/engine-live";
import type { SessionRuntime } from "../../src/runtime/session-runtime";
import { readSettings } from "../../src/settings/settings";
import { createHarness, type Harness, settle, track } from "./harness";

// subscribe and transfer_subscriptions arrive with the subscriptions issue; the gate they will
// call is this relay's, and it already raises their cards (GAP-04 (b), (e)).

async function gateOf(h: Harness): Promise<(call: RelayToolCall, details?: object) => Promise<void>> {
  const live = createEngineLive({ clock: h.clock });
  const runtime = { inFlight: () => ({ turnId: "trn_running", text: "" }) } as unknown as SessionRuntime;
  const ctx: ActionContext = {
    deps: h.deps,
    runtime,
    live,
    callerId: h.caller.id,
    from: { relay: null, session: h.caller.id },
    loadCaller: async () => callerProfileOf(h.caller),
    settings: await readSettings(h.stores.settings),
    signal: undefined,
    gate: (call, facts) => localGate(ctx, call, facts),
  };
  return (call, details) => ctx.gate(call, details === undefined ? {} : { details });
}

const SUBSCRIBE = {
  action: "subscribe",
  relay: "this",
  sessions: ["all"],
  exclude: ["ses_x"],
  digest_minutes: 30,
  quiet_hours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
} as unknown as RelayToolCall;

async function answerNext(h: Harness, choice: "allow" | "deny") {
  await settle(20);
  const [card] = await h.stores.cards.listCards({ status: "pending" });
  if (!card) {
    throw new Error("no pending card");
  }
  await h.engine.owner.answerCard(card.id, { choice });
  // This gate is not the engine's: no wake-up reaches it, the poll does.
  await h.clock.advanceAsync(CARD_POLL_MS);
  return card;
}

describe("the gate of this relay's writes, for the subscription actions (GAP-04 (b), (e), R-FEW-24)", () => {
  it("R-UI-01(b), R-FEW-24: the first watch asks, naming the options; Allow covers later subscriptions", async () => {
    const h = await createHarness({ approvalCards: true });
    const gate = await gateOf(h);
    const first = track(
      gate(SUBSCRIBE, {
        subscription: {
          sessions: "all",
          digestMinutes: 30,
          quietHours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
          excludeCount: 1,
        },
      }),
    );
    const card = await answerNext(h, "allow");
    expect(card).toMatchObject({
      kind: "first_subscribe",
      detail: ["digest every 30 min, quiet 23:00–06:00 Europe/Berlin, except 1 it leaves out"],
      text: expect.stringContaining("watch sessions for the first time: subscribe to all sessions"),
    });
    await first.promise;
    await gate(SUBSCRIBE);
    expect(await h.stores.cards.listCards({ status: "pending" })).toEqual([]);
  });

  it("R-XFER-02: transfer_subscriptions asks every time, and Deny refuses", async () => {
    const h = await createHarness({ approvalCards: true });
    const gate = await gateOf(h);
    const transfer = {
      action: "transfer_subscriptions",
      relay: "this",
      from: "ses_old",
    } as unknown as RelayToolCall;
    const first = track(gate(transfer, { transferFrom: "ses_old" }));
    expect(await answerNext(h, "allow")).toMatchObject({
      kind: "transfer_subscriptions",
      text: expect.stringContaining("conversation ses_old"),
    });
    await first.promise;
    const second = track(gate(transfer, { transferFrom: "ses_old" }));
    await answerNext(h, "deny");
    await expect(second.promise).rejects.toMatchObject({ code: "REMOTE_RELAY_PERMISSION" });
  });

  it("GAP-04: an Allow covers what it says and nothing more: another conversation still asks", async () => {
    const h = await createHarness({ approvalCards: true });
    const gate = await gateOf(h);
    const first = track(gate(SUBSCRIBE));
    await answerNext(h, "allow");
    await first.promise;
    const other = await h.ownerSession({ title: "Other" });
    const otherCtxGate = await gateOf({ ...h, caller: other });
    const asked = track(otherCtxGate(SUBSCRIBE));
    expect(await answerNext(h, "deny")).toMatchObject({ kind: "first_subscribe", conversation: other.id });
    await expect(asked.promise).rejects.toMatchObject({ code: "REMOTE_RELAY_PERMISSION" });
  });
});
