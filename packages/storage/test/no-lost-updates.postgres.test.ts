import { createSequentialIdGenerator, FakeClock } from "@oar/core/testing";
import {
  addUsage,
  createEngine,
  type Engine,
  type OwnerSessionDetail,
  readSettings,
  type TurnUsage,
} from "@oar/engine";
import { createTestProvider, newMessage, newSession, newTurn } from "@oar/engine/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { Stores } from "../src";
import { postgresDatabase } from "./databases";
import { useTwoProcesses } from "./holding";

const T0 = Date.UTC(2026, 2, 10, 12);
const RELAY = { name: "desk", version: "0.1.0", platform: "linux-x64" } as const;

// DESIGN §9: counters and settings change in SQL, and a read shows one moment of the database,
// whichever relay process writes at the same instant.
describe.skipIf(!postgresDatabase.available)(
  "two relay processes on one Postgres lose no update",
  { timeout: 60_000 },
  () => {
    const { a, b } = useTwoProcesses();
    const engines: Engine[] = [];
    afterEach(async () => {
      for (const engine of engines.splice(0)) {
        await engine.close();
      }
    });

    /** An engine on a process's stores, its settings cache and all, as a relay builds it. */
    const engineOn = (stores: Stores, suffix: string) => {
      const base = createSequentialIdGenerator();
      const engine = createEngine({
        stores,
        providers: [createTestProvider()],
        clock: new FakeClock(T0),
        ids: { next: (kind) => `${base.next(kind)}${suffix}` },
        relay: RELAY,
        approvalCards: false,
        sharedStore: true,
      });
      engines.push(engine);
      return engine;
    };

    it("1,000 usage reports at once, half from each process, all count: 1,000 turns and the exact sums", async () => {
      // Costs in eighths of a dollar add up exactly in binary, in any order.
      const usage = (n: number): TurnUsage => ({ costUsd: (n % 8) / 8, inputTokens: n, outputTokens: 2 * n });
      const reports = Array.from({ length: 1_000 }, (_, n) => n);
      await Promise.all(reports.map((n) => addUsage(n % 2 === 0 ? a() : b(), "claude-api", T0, usage(n))));

      const stored = await b().settings.getSetting("usage.claude-api.2026-03");
      expect(stored).toEqual({
        turns: 1_000,
        costUsd: reports.reduce((sum, n) => sum + (n % 8) / 8, 0),
        inputTokens: reports.reduce((sum, n) => sum + n, 0),
        outputTokens: reports.reduce((sum, n) => sum + 2 * n, 0),
      });
    });

    it("PATCH /v1/owner/settings of different fields from both processes at once keeps both, round after round", async () => {
      const first = engineOn(a(), "a");
      const second = engineOn(b(), "b");
      for (let round = 1; round <= 40; round++) {
        await Promise.all([
          first.owner.patchSettings({ maxTurnSeconds: 600 + round }),
          second.owner.patchSettings({ quietAfterMinutes: 10 + round }),
        ]);
        const stored = await readSettings(a().settings);
        expect({
          round,
          maxTurnSeconds: stored.maxTurnSeconds,
          quietAfterMinutes: stored.quietAfterMinutes,
        }).toEqual({ round, maxTurnSeconds: 600 + round, quietAfterMinutes: 10 + round });
      }
    });

    /** Turns done in the view whose reply the view does not hold. */
    const doneWithoutReply = (view: OwnerSessionDetail) =>
      view.turns
        .filter((turn) => turn.status === "done")
        .filter((turn) => !view.messages.some((m) => m.turnId === turn.id && m.role === "assistant"))
        .map((turn) => turn.id);

    it("GET /v1/owner/sessions/:id never shows a turn done without its reply while another process ends turns", async () => {
      const reader = engineOn(b(), "b");
      await a().sessions.createSession(newSession("ses_1", { provider: "test", model: "test-1" }));
      const missing: string[] = [];
      let views = 0;
      for (let n = 1; n <= 60; n++) {
        const turnId = `trn_${n}`;
        await a().sessions.appendMessage(newMessage(`msg_${n}`, "ses_1", { turnId, createdAt: T0 + n }));
        await a().sessions.enqueueTurn(
          newTurn(turnId, "ses_1", { promptMessageId: `msg_${n}`, queuedAt: T0 + n }),
        );
        await a().sessions.claimNextTurn({ sessionId: "ses_1", now: T0 + n });
        // The other process ends the turn with its reply while this one reads the view over and over.
        let ended = false;
        const end = a()
          .sessions.finishTurn({
            turnId,
            status: "done",
            reply: `reply ${n}`,
            replyMessageId: `rep_${n}`,
            endedAt: T0 + n,
          })
          .then(() => {
            ended = true;
          });
        for (let seen = false; !seen; ) {
          const view = await reader.owner.getSession("ses_1");
          views++;
          missing.push(...doneWithoutReply(view));
          seen = ended && view.turns.some((turn) => turn.id === turnId && turn.status === "done");
        }
        await end;
      }
      expect(missing).toEqual([]);
      expect(views).toBeGreaterThan(60);
    });
  },
);
