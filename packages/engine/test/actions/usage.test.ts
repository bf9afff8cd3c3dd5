import { UsageResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import type { ProviderInfo } from "../../src/ports/provider";
import { createTestProvider } from "../../src/testing";
import { addUsage } from "../../src/usage/provider-usage";
import { createHarness } from "./harness";

const MODELS = [{ id: "claude-sonnet-5-5", default: true }];
const ESTIMATE = "Claude Code's estimate from its own price table, not the bill.";

function tracked(id: string, info: Partial<ProviderInfo> = {}) {
  return createTestProvider({ info: { id, label: id, models: MODELS, usageTracked: true, ...info } });
}

describe("usage (§10): counters and which of them are estimates", () => {
  it("R-USAGE-02: a capped provider whose cost is an estimate names consumed, remaining and utilization as estimated, with how", async () => {
    const h = await createHarness({
      extraProviders: [tracked("claude-api", { monthlyCapUsd: 50, costEstimate: ESTIMATE })],
    });
    for (let run = 0; run < 4; run++) {
      await addUsage(h.stores, "claude-api", h.clock.now(), {
        costUsd: 0.0004,
        inputTokens: 100,
        outputTokens: 20,
      });
    }

    const result = UsageResultSchema.parse(await h.ok({ action: "usage", relay: "this" }));

    expect(result.providers).toContainEqual({
      provider: "claude-api",
      status: "ok",
      unit: "usd",
      consumed: 0.0016,
      allocation: 50,
      remaining: 49.9984,
      utilization: 0,
      inputTokens: 400,
      outputTokens: 80,
      resetAt: "2026-02-01T00:00:00.000Z",
      estimated: ["consumed", "remaining", "utilization"],
      estimateNote: ESTIMATE,
    });
  });

  it("R-USAGE-02: without a cap only consumed is estimated; the token counts are exact", async () => {
    const h = await createHarness({ extraProviders: [tracked("claude", { costEstimate: ESTIMATE })] });
    await addUsage(h.stores, "claude", h.clock.now(), { costUsd: 0.25, inputTokens: 1000, outputTokens: 50 });

    const result = UsageResultSchema.parse(await h.ok({ action: "usage", relay: "this" }));

    expect(result.providers).toContainEqual({
      provider: "claude",
      status: "ok",
      unit: "usd",
      consumed: 0.25,
      inputTokens: 1000,
      outputTokens: 50,
      resetAt: "2026-02-01T00:00:00.000Z",
      estimated: ["consumed"],
      estimateNote: ESTIMATE,
    });
  });

  it("R-USAGE-02/03: a provider that reports an exact cost names nothing as estimated; untracked ones give no counters", async () => {
    const h = await createHarness({ extraProviders: [tracked("metered")] });
    await addUsage(h.stores, "metered", h.clock.now(), { costUsd: 1.5, inputTokens: 10, outputTokens: 5 });

    const result = UsageResultSchema.parse(await h.ok({ action: "usage", relay: "this" }));

    expect(result.providers).toEqual([
      { provider: "test", status: "not_tracked" },
      {
        provider: "metered",
        status: "ok",
        unit: "usd",
        consumed: 1.5,
        inputTokens: 10,
        outputTokens: 5,
        resetAt: "2026-02-01T00:00:00.000Z",
      },
    ]);
  });
});
