import { describe, expect, it } from "vitest";
import { createOwnerApi } from "../../src/owner/create-owner-api";
import type { OwnerSessionDetail } from "../../src/owner/owner-api";
import type { EngineStores } from "../../src/ports/engine-stores";
import { newMessage, newSession, newTurn } from "../../src/testing";
import { ownerHarness, T0 } from "./harness";

/**
 * The stores, with `between` run and awaited once the `nth` call the reader makes to the session
 * or read store has returned, before the reader gets its answer: another process's change
 * committed between two reads of one view.
 */
function changingAfterRead(stores: EngineStores, nth: number, between: () => Promise<unknown>) {
  let calls = 0;
  const hooked = <S extends object>(store: S): S => {
    const members = store as Record<string, unknown>;
    const wrapped: Record<string, unknown> = { ...members };
    for (const name in members) {
      const member = members[name];
      if (typeof member === "function") {
        wrapped[name] = async (...args: unknown[]) => {
          const result: unknown = await member.apply(store, args);
          if (++calls === nth) {
            await between();
          }
          return result;
        };
      }
    }
    return wrapped as S;
  };
  return {
    stores: { ...stores, sessions: hooked(stores.sessions), reads: hooked(stores.reads) },
    calls: () => calls,
  };
}

/** The turns the view shows done without the reply that ended them. */
function doneWithoutReply(view: OwnerSessionDetail): string[] {
  return view.turns
    .filter((turn) => turn.status === "done")
    .filter((turn) => !view.messages.some((m) => m.turnId === turn.id && m.role === "assistant"))
    .map((turn) => turn.id);
}

describe("the owner's session view (GET /v1/owner/sessions/:id)", () => {
  it("never shows a turn done without its reply, whichever of its reads the turn's end commits after", async () => {
    const h = await ownerHarness();
    for (let nth = 1; ; nth++) {
      const sessionId = `ses_${nth}`;
      const turnId = `trn_${nth}`;
      await h.stores.sessions.createSession(newSession(sessionId, { provider: "test", model: "test-1" }));
      await h.stores.sessions.appendMessage(newMessage(`msg_${nth}`, sessionId, { turnId }));
      await h.stores.sessions.enqueueTurn(newTurn(turnId, sessionId, { promptMessageId: `msg_${nth}` }));
      await h.stores.sessions.claimNextTurn({ sessionId, now: T0 });
      // The turn ends with its reply in one change, as a turn's runner ends it (FinishTurn).
      const endTurn = () =>
        h.stores.sessions.finishTurn({
          turnId,
          status: "done",
          reply: "the reply",
          replyMessageId: `rep_${nth}`,
          endedAt: T0 + 1,
        });
      const reader = changingAfterRead(h.stores, nth, endTurn);
      const owner = createOwnerApi(
        {
          stores: reader.stores,
          providers: [h.provider],
          clock: h.clock,
          ids: h.ids,
          relay: { name: "desk", version: "0.1.0", platform: "linux-x64" },
        },
        h.runtime,
      );
      const view = await owner.getSession(sessionId);
      expect({ nth, doneWithoutReply: doneWithoutReply(view) }).toEqual({ nth, doneWithoutReply: [] });
      if (reader.calls() < nth) {
        // The view made fewer reads than that: the turn ended after all of them.
        expect(view.turns.map((turn) => turn.status)).toEqual(["running"]);
        break;
      }
      const after = await owner.getSession(sessionId);
      expect(after.turns.map((turn) => turn.status)).toEqual(["done"]);
      expect(after.messages.map((m) => m.id)).toEqual([`msg_${nth}`, `rep_${nth}`]);
    }
  });
});
