import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { SessionStore } from "../ports/session-store";
import type { ToolCallRecord, ToolCallStore } from "../ports/tool-call-store";
import { newSession } from "./fixtures";

export interface ToolCallStoreFixture extends ContractFixture<ToolCallStore> {
  readonly sessions: SessionStore;
}

function toolCall(id: string, overrides: Partial<ToolCallRecord> = {}): ToolCallRecord {
  return {
    id,
    sessionId: "ses_1",
    action: "read_session",
    relay: "desk",
    targetSession: "ses_2",
    ok: true,
    code: null,
    summary: `read_session → desk session 2: ${id}`,
    createdAt: T0,
    ...overrides,
  };
}

/** The behaviour every ToolCallStore must have (R-UI-02: the 🛰️ lines of a conversation's activity). */
export function runToolCallStoreContract(setup: ContractSetup<ToolCallStoreFixture>): void {
  describe("ToolCallStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

    async function sessions(...sessionIds: string[]) {
      for (const id of sessionIds) {
        await fixture().sessions.createSession(newSession(id));
      }
    }

    it("R-UI-02: keeps a call as given, a refused one with its code and no session", async () => {
      await sessions("ses_1");
      const refused = toolCall("call_2", {
        action: "unknown",
        relay: "build-box",
        targetSession: null,
        ok: false,
        code: "REMOTE_RELAY_INVALID_INPUT",
        summary: "action is required 🛰️ — «one of» …",
        createdAt: T0 + 1,
      });
      await store().recordToolCalls([toolCall("call_1")]);
      await store().recordToolCalls([refused]);
      expect(await store().listToolCalls("ses_1", { limit: 10 })).toEqual([toolCall("call_1"), refused]);
    });

    it("lists a session's newest calls up to the limit, oldest first, same-instant ones in the order recorded", async () => {
      await sessions("ses_1", "ses_2");
      await store().recordToolCalls([toolCall("call_c", { createdAt: T0 + 20 })]);
      await store().recordToolCalls([toolCall("call_a", { createdAt: T0 + 10 })]);
      await store().recordToolCalls([toolCall("call_z", { createdAt: T0 + 20 })]);
      await store().recordToolCalls([toolCall("call_b", { createdAt: T0 + 20 })]);
      await store().recordToolCalls([toolCall("call_other", { sessionId: "ses_2", createdAt: T0 + 30 })]);
      expect(ids(await store().listToolCalls("ses_1", { limit: 10 }))).toEqual([
        "call_a",
        "call_c",
        "call_z",
        "call_b",
      ]);
      expect(ids(await store().listToolCalls("ses_1", { limit: 2 }))).toEqual(["call_z", "call_b"]);
      expect(await store().listToolCalls("ses_1", { limit: 0 })).toEqual([]);
      expect(ids(await store().listToolCalls("ses_2", { limit: 10 }))).toEqual(["call_other"]);
      expect(await store().listToolCalls("ses_none", { limit: 10 })).toEqual([]);
    });

    it("keeps a batch in one write, in its order, leaving out the calls of sessions not live; an empty batch writes nothing", async () => {
      await sessions("ses_1", "ses_2");
      await store().recordToolCalls([]);
      await store().recordToolCalls([
        toolCall("call_q", { createdAt: T0 + 5 }),
        toolCall("call_ghost", { sessionId: "ses_ghost", createdAt: T0 + 5 }),
        toolCall("call_p", { createdAt: T0 + 5 }),
        toolCall("call_o", { sessionId: "ses_2", createdAt: T0 + 5 }),
      ]);
      expect(ids(await store().listToolCalls("ses_1", { limit: 10 }))).toEqual(["call_q", "call_p"]);
      expect(ids(await store().listToolCalls("ses_2", { limit: 10 }))).toEqual(["call_o"]);
      expect(await store().listToolCalls("ses_ghost", { limit: 10 })).toEqual([]);
    });

    it("keeps nothing for a session that is unknown or deleted", async () => {
      await sessions("ses_1");
      await store().recordToolCalls([toolCall("call_ghost", { sessionId: "ses_ghost" })]);
      await fixture().sessions.deleteSession({ id: "ses_1", at: T0 });
      await store().recordToolCalls([toolCall("call_late")]);
      expect(await store().listToolCalls("ses_ghost", { limit: 10 })).toEqual([]);
      expect(await store().listToolCalls("ses_1", { limit: 10 })).toEqual([]);
    });

    it("a batch written again (its answer lost to a cut) keeps each call once, as it was; the new ones in it are kept", async () => {
      await sessions("ses_1");
      await store().recordToolCalls([toolCall("call_1"), toolCall("call_2", { createdAt: T0 + 1 })]);
      await store().recordToolCalls([
        toolCall("call_1", { summary: "written again" }),
        toolCall("call_2", { createdAt: T0 + 1 }),
        toolCall("call_3", { createdAt: T0 + 2 }),
      ]);
      const kept = await store().listToolCalls("ses_1", { limit: 10 });
      expect(ids(kept)).toEqual(["call_1", "call_2", "call_3"]);
      expect(kept[0]).toEqual(toolCall("call_1"));
    });

    it("an archived session's calls are still kept", async () => {
      await sessions("ses_1");
      await fixture().sessions.archiveSession({ id: "ses_1", at: T0 });
      await store().recordToolCalls([toolCall("call_1")]);
      expect(ids(await store().listToolCalls("ses_1", { limit: 10 }))).toEqual(["call_1"]);
    });

    it("forgets one session's calls and no other's", async () => {
      await sessions("ses_1", "ses_2");
      await store().recordToolCalls([toolCall("call_1")]);
      await store().recordToolCalls([toolCall("call_2", { createdAt: T0 + 1 })]);
      await store().recordToolCalls([toolCall("call_3", { sessionId: "ses_2" })]);
      expect(await store().deleteToolCallsOf("ses_1")).toBe(2);
      expect(await store().deleteToolCallsOf("ses_1")).toBe(0);
      expect(await store().listToolCalls("ses_1", { limit: 10 })).toEqual([]);
      expect(ids(await store().listToolCalls("ses_2", { limit: 10 }))).toEqual(["call_3"]);
    });
  });
}
