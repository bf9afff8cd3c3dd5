import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FakeClock } from "@oar/core/testing";
import type { JsonValue, Worker } from "@oar/engine";
import { createRecordingTurnIO, type RecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { text } from "../../src/testing";
import {
  CLAUDE_TEST_TIMEOUT_MS,
  type ClaudeTestbed,
  createClaudeTestbed,
  startApiWorker,
  turnOf,
} from "./claude-testbed";

/** The running total the CLI reported, as the worker keeps it in the provider state. */
function keptTotal(state: JsonValue | undefined): { claudeSessionId: string; totalUsd: number } {
  const kept = (state as { conversationCost?: { claudeSessionId: string; totalUsd: number } } | undefined)
    ?.conversationCost;
  if (kept === undefined) {
    throw new Error(`no conversation cost in the provider state ${JSON.stringify(state)}`);
  }
  return kept;
}

async function turn(worker: Worker, bed: ClaudeTestbed, prompt: string): Promise<RecordingTurnIO> {
  const io = createRecordingTurnIO({ clock: new FakeClock() });
  const outcome = await worker.runTurn(turnOf(prompt, bed.cwd), io);
  expect(outcome.status, JSON.stringify(outcome)).toBe("done");
  return io;
}

/** What the engine adds to the provider's month: each reported cost (R-BILL-06 compares it with the cap). */
const monthOf = (ios: readonly RecordingTurnIO[]) =>
  ios.flatMap((io) => io.usages).reduce((sum, usage) => sum + (usage.costUsd ?? 0), 0);

/**
 * Makes the CLI lose its running total of a conversation but not the conversation: it keeps the
 * total in its transcript as `cost-state` lines, and a resumed run without one counts from zero.
 */
function dropCostState(bed: ClaudeTestbed, claudeSessionId: string): void {
  const projects = join(bed.env.HOME ?? "", ".claude", "projects");
  for (const project of readdirSync(projects)) {
    const file = join(projects, project, `${claudeSessionId}.jsonl`);
    try {
      const lines = readFileSync(file, "utf8").split("\n");
      writeFileSync(file, lines.filter((line) => !line.includes('"type":"cost-state"')).join("\n"));
      return;
    } catch {
      // Not this project's conversation.
    }
  }
  throw new Error(`no transcript of ${claudeSessionId} under ${projects}`);
}

describe("claude-api against the real CLI: what a turn costs", { timeout: CLAUDE_TEST_TIMEOUT_MS }, () => {
  it("R-USAGE-02/R-BILL-06: counts what each resumed run added, not the conversation's running total, across a relay restart", async () => {
    const bed = await createClaudeTestbed();
    // Every reply costs the same (the fake's fixed token counts), so every run adds the same.
    bed.fake.enqueue(text("One."), text("Two."), text("Three."), text("Four."));
    const worker = startApiWorker(bed);
    const before = [
      await turn(worker, bed, "First."),
      await turn(worker, bed, "Second."),
      await turn(worker, bed, "Third."),
    ];
    // A relay restart: a new worker over the provider state the engine persisted.
    const restarted = startApiWorker(bed, {
      session: { providerState: before[2]?.savedStates.at(-1) ?? null },
    });
    const after = await turn(restarted, bed, "Fourth.");
    const ios = [...before, after];

    // What the relay counts: one run's cost per turn.
    const perRun = ios[0]?.usages[0]?.costUsd ?? 0;
    expect(perRun).toBeGreaterThan(0);
    for (const io of ios) {
      expect(io.usages).toHaveLength(1);
      expect(io.usages[0]).toMatchObject({ inputTokens: 100, outputTokens: 20 });
      expect(io.usages[0]?.costUsd).toBeCloseTo(perRun, 12);
    }
    expect(monthOf(ios)).toBeCloseTo(4 * perRun, 12);
    // The CLI's own figures: a running total of the whole conversation, one run's cost more each
    // time; the month ends at its last total.
    const totals = ios.map((io) => keptTotal(io.savedStates.at(-1)).totalUsd);
    totals.forEach((total, i) => {
      expect(total).toBeCloseTo(perRun * (i + 1), 12);
    });
    expect(monthOf(ios)).toBeCloseTo(totals[3] ?? Number.NaN, 12);
    const conversation = keptTotal(after.savedStates.at(-1)).claudeSessionId;
    expect(ios.map((io) => keptTotal(io.savedStates.at(-1)).claudeSessionId)).toEqual([
      conversation,
      conversation,
      conversation,
      conversation,
    ]);
  });

  it("R-USAGE-02: counts all of a total lower than the kept one (the CLI started its count over)", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(text("One."), text("Two."), text("Three."));
    const worker = startApiWorker(bed);
    const first = await turn(worker, bed, "First.");
    const second = await turn(worker, bed, "Second.");
    const { claudeSessionId, totalUsd: keptBefore } = keptTotal(second.savedStates.at(-1));
    dropCostState(bed, claudeSessionId);

    const third = await turn(worker, bed, "Third.");

    const perRun = keptTotal(first.savedStates.at(-1)).totalUsd;
    const reported = keptTotal(third.savedStates.at(-1));
    expect(reported.claudeSessionId).toBe(claudeSessionId);
    expect(reported.totalUsd).toBeCloseTo(perRun, 12);
    expect(reported.totalUsd).toBeLessThan(keptBefore);
    expect(third.usages.map((usage) => usage.costUsd)).toEqual([reported.totalUsd]);
    expect(monthOf([first, second, third])).toBeCloseTo(3 * perRun, 12);
  });

  it("R-USAGE-02: counts all of a new conversation's total when the kept one is gone from the CLI", async () => {
    const bed = await createClaudeTestbed();
    bed.fake.enqueue(text("Starting afresh."));
    const gone = "0b5c2c7e-1111-4222-8333-944455556666";
    const providerState = {
      claudeSessionId: gone,
      conversationCost: { claudeSessionId: gone, totalUsd: 1e-9 },
    };
    const worker = startApiWorker(bed, { session: { providerState } });

    const io = await turn(worker, bed, "Go on.");

    const reported = keptTotal(io.savedStates.at(-1));
    expect(reported.claudeSessionId).not.toBe(gone);
    expect(reported.totalUsd).toBeGreaterThan(1e-9);
    // The failed resume cost nothing; the new conversation's run counts whole.
    expect(io.usages.map((usage) => usage.costUsd)).toEqual([0, reported.totalUsd]);
  });
});
