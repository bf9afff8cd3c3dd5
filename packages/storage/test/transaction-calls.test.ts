import { newSession } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import type { Stores } from "../src/stores";
import { testDatabases, useTestStorage } from "./databases";

const T0 = Date.parse("2026-12-01T10:00:00Z");

// A transaction whose work runs store calls side by side and fails on one of them: before the
// transaction waited for the others, a sibling's late statement (after its savepoint) ran on the
// connection once the transaction had rolled back, and committed on its own.
for (const database of testDatabases) {
  describe.skipIf(!database.available)(`a transaction's calls on ${database.name} (DESIGN §9)`, () => {
    const test = useTestStorage(database);

    it("one change, one transaction: a call still in flight when the work fails is rolled back with it", async () => {
      await test.empty();
      const { stores } = test.storage();
      await stores.sessions.createSession(newSession("ses_w", { createdAt: T0 }));
      const boom = new Error("a sibling failed");
      const failed = await stores
        .transaction(async (tx) => {
          await Promise.all([
            // Its insert follows a savepoint, so it is sent after the failure below is known.
            tx.sessions.appendMessages([
              { id: "msg_late", sessionId: "ses_w", role: "relay", text: "late", createdAt: T0 },
            ]),
            Promise.reject(boom),
          ]);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failed).toBe(boom);
      expect(await stores.sessions.listMessages("ses_w")).toEqual([]);
      expect((await stores.sessions.getSession("ses_w"))?.lastActivityAt).toBe(T0);
    });

    it("a store call on a transaction's stores after it ended is refused, and changes nothing", async () => {
      await test.empty();
      const { stores } = test.storage();
      await stores.sessions.createSession(newSession("ses_w", { createdAt: T0 }));
      let escaped: Stores | undefined;
      await stores.transaction(async (tx) => {
        escaped = tx;
      });
      await expect(
        escaped?.sessions.appendMessages([
          { id: "msg_after", sessionId: "ses_w", role: "relay", text: "after", createdAt: T0 },
        ]),
      ).rejects.toMatchObject({
        code: "STORAGE",
        message: "SessionStore.appendMessages was called after its transaction had ended.",
      });
      expect(await stores.sessions.listMessages("ses_w")).toEqual([]);
    });
  });
}
