import { FakeClock } from "@oar/core/testing";
import { type OwnerSessionDetail, TOOL_CALL_WINDOW_MS } from "@oar/engine";
import { newMessage } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { createTestRelay } from "./harness";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";

const CALLS = 10;
const TOOL_CALL_INSERT = /^\s*insert into "tool_calls"/i;

/**
 * Issue 29: the database work of the calls agents make most, counted statement by statement
 * (BEGIN and COMMIT included) through the storage's statement hook, against the bare reads of the
 * same rows. The clock stands still, so nothing else of the relay runs meanwhile.
 */
function describeOn(label: string, databaseUrl?: () => string) {
  describe(`statements per call on ${label}`, { timeout: 30_000 }, () => {
    async function relayWithTarget() {
      const statements: string[] = [];
      const clock = new FakeClock(Date.now());
      const t = await createTestRelay({
        ...(databaseUrl === undefined ? {} : { databaseUrl: databaseUrl() }),
        overrides: { clock, onStatement: (text) => statements.push(text) },
      });
      const caller = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { title: "caller" });
      const target = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { title: "target" });
      const { stores } = t.relay.services.storage;
      for (let n = 0; n < 5; n++) {
        await stores.sessions.appendMessage(
          newMessage(`msg_${target.id}_${n}`, target.id, { text: `line ${n}`, createdAt: clock.now() }),
        );
      }
      const token = await t.agentToken(caller.id);
      /** Statements the work sent, split into the tool-call log's inserts and the rest. */
      const count = async (work: () => Promise<unknown>) => {
        statements.length = 0;
        await work();
        const log = statements.filter((text) => TOOL_CALL_INSERT.test(text)).length;
        return { log, other: statements.length - log };
      };
      const calls = (body: object) => () =>
        Promise.all(
          Array.from({ length: CALLS }, async () => {
            const text = await (await t.tool(token, body)).text();
            expect(text).toContain('"ok":true');
          }),
        );
      // Warm: the caller's token, its liveness and the settings are then answered from memory.
      await calls({ action: "list_relays" })();
      await clock.advanceAsync(TOOL_CALL_WINDOW_MS);
      return { clock, stores, target, count, calls };
    }

    it("read_session: one statement a call, where the bare read makes two; ten calls' log lines in one insert", async () => {
      const { clock, stores, target, count, calls } = await relayWithTarget();
      const bare = await count(() =>
        Promise.all([
          stores.sessions.getSession(target.id),
          stores.sessions.listMessages(target.id, { last: 20 }),
        ]),
      );
      expect(bare).toEqual({ log: 0, other: 2 });
      const read = calls({ action: "read_session", relay: "this", session: target.id, last: 20 });
      expect(await count(read)).toEqual({ log: 0, other: CALLS });
      // The calls' lines wait for the window's end, then go in one statement.
      expect(await count(() => clock.advanceAsync(TOOL_CALL_WINDOW_MS))).toEqual({ log: 1, other: 0 });
    });

    it("list_sessions: one statement a call, as the bare list; ten calls' log lines in one insert", async () => {
      const { clock, stores, count, calls } = await relayWithTarget();
      expect(await count(() => stores.sessions.listSessions({ scope: "active" }))).toEqual({
        log: 0,
        other: 1,
      });
      expect(await count(calls({ action: "list_sessions", relay: "this" }))).toEqual({
        log: 0,
        other: CALLS,
      });
      expect(await count(() => clock.advanceAsync(TOOL_CALL_WINDOW_MS))).toEqual({ log: 1, other: 0 });
    });
  });
}

describeOn("PGlite");
describe.skipIf(TEST_POSTGRES_URL === undefined)("on Postgres", () => {
  const database = useScratchPostgres();
  describeOn("Postgres", () => database().url);
});
