import { describe, expect, it } from "vitest";
import { CARD_POLL_MS } from "../../src/actions/approvals";
import { CLAUDE_API_CAP_REACHED, PROVIDER_NOT_CONFIGURED } from "../../src/actions/billing";
import type { ProviderInfo } from "../../src/ports/provider";
import { SETTINGS_CACHE_MS } from "../../src/settings/settings-cache";
import { createTestProvider, type TestProvider } from "../../src/testing";
import { addUsage } from "../../src/usage/provider-usage";
import { createHarness, type Harness, refusal, settle, track } from "./harness";

const MODELS = [{ id: "claude-sonnet-5-5", default: true }, { id: "claude-opus-5-5" }];

/** The two billings of a Claude session as providers of the test relay. */
function claudeProviders(api: Partial<ProviderInfo> = {}): [TestProvider, TestProvider] {
  return [
    createTestProvider({
      info: { id: "claude", label: "Claude (subscription)", models: MODELS, usageTracked: true },
    }),
    createTestProvider({
      info: { id: "claude-api", label: "Claude (API key)", models: MODELS, usageTracked: true, ...api },
    }),
  ];
}

async function claudeSession(h: Harness, provider: "claude" | "claude-api", model = "claude-sonnet-5-5") {
  return h.agentSession({ provider, model, title: "Claude worker" });
}

function send(session: string, extra: Record<string, unknown> = {}) {
  return { action: "send", relay: "this", session, text: "go on", wait_seconds: 5, ...extra };
}

describe("billing switch (§14.1)", () => {
  it("R-BILL-01: send with provider moves the session to the API key and runs the prompt there, in one call", async () => {
    const [claude, api] = claudeProviders({ monthlyCapUsd: 50 });
    const h = await createHarness({ extraProviders: [claude, api] });
    const session = await claudeSession(h, "claude");
    const result = await h.ok(send(session.id, { provider: "claude-api" }));
    expect(result.status).toBe("done");
    expect((await h.session(session.id)).provider).toBe("claude-api");
    expect(api.prompts.map((p) => p.prompt)).toEqual(["go on"]);
    expect(claude.prompts).toEqual([]);
    // And back to the subscription.
    await h.ok(send(session.id, { provider: "claude" }));
    expect((await h.session(session.id)).provider).toBe("claude");
  });

  it("R-BILL-03: the approval card says the billing switch", async () => {
    const [claude, api] = claudeProviders();
    const h = await createHarness({ extraProviders: [claude, api], approvalCards: true });
    const session = await claudeSession(h, "claude-api");
    h.provider.hold();
    await h.engine.owner.postMessage(h.caller.id, "hold");
    await settle();
    await h.engine.owner.patchSession(h.caller.id, { mode: "ask" });
    const call = track(h.call(send(session.id, { provider: "claude", mode: "ask" })));
    await settle(20);
    const [card] = await h.stores.cards.listCards({ status: "pending" });
    expect(card?.detail).toContain("Switches billing to subscription");
    await h.engine.owner.answerCard(card?.id as string, { choice: "allow" });
    await h.clock.advanceAsync(CARD_POLL_MS);
    expect(await call.promise).toMatchObject({ ok: true });
    expect((await h.session(session.id)).provider).toBe("claude");
  });

  it("R-BILL-02/04: a switch to an API key that is not configured is refused with remoteCode, and nothing is sent", async () => {
    const [claude, api] = claudeProviders({ notConfigured: "Claude API has no API key on this relay." });
    const h = await createHarness({ extraProviders: [claude, api] });
    const session = await claudeSession(h, "claude");
    const result = await h.call(send(session.id, { provider: "claude-api" }));
    expect(refusal(result).code).toBe("REMOTE_RELAY_PROVIDER_UNAVAILABLE");
    expect(result.remoteCode).toBe(PROVIDER_NOT_CONFIGURED);
    expect(result.error).toContain("Claude API has no API key");
    expect((await h.session(session.id)).provider).toBe("claude");
    expect(await h.stores.sessions.listMessages(session.id)).toEqual([]);
  });

  it("R-BILL-04/06: at the monthly cap a switch to the API key, and a send on it, are refused with CLAUDE_API_CAP_REACHED", async () => {
    const [claude, api] = claudeProviders({ monthlyCapUsd: 10 });
    const h = await createHarness({ extraProviders: [claude, api] });
    const onSubscription = await claudeSession(h, "claude");
    const onKey = await claudeSession(h, "claude-api");
    // 9.99 USD spent: still under the cap.
    await addUsage(h.stores, "claude-api", h.clock.now(), { costUsd: 9.99 });
    await h.ok(send(onKey.id));
    await addUsage(h.stores, "claude-api", h.clock.now(), { costUsd: 0.01 });
    // Written past the engine's settings cache, as another relay process would: seen within a second.
    h.clock.advance(SETTINGS_CACHE_MS);
    const switched = await h.call(send(onSubscription.id, { provider: "claude-api" }));
    expect(refusal(switched).code).toBe("REMOTE_RELAY_PROVIDER_UNAVAILABLE");
    expect(switched.remoteCode).toBe(CLAUDE_API_CAP_REACHED);
    expect((await h.session(onSubscription.id)).provider).toBe("claude");
    const messagesBefore = (await h.stores.sessions.listMessages(onKey.id)).length;
    const stay = await h.call(send(onKey.id));
    expect(stay.remoteCode).toBe(CLAUDE_API_CAP_REACHED);
    expect(stay.error).toContain('Send with provider "claude"');
    expect((await h.stores.sessions.listMessages(onKey.id)).length).toBe(messagesBefore);
    // The remedy works: the subscription takes the prompt.
    await h.ok(send(onKey.id, { provider: "claude" }));
    expect((await h.session(onKey.id)).provider).toBe("claude");
    const usage = await h.ok({ action: "usage", relay: "this" });
    expect(usage.providers).toContainEqual(
      expect.objectContaining({
        provider: "claude-api",
        status: "exhausted",
        consumed: 10,
        allocation: 10,
        remaining: 0,
      }),
    );
  });

  it("R-BILL-04: a model the other side does not offer is REMOTE_RELAY_UNKNOWN_MODEL, nothing changed", async () => {
    const claude = createTestProvider({
      info: { id: "claude", label: "Claude", models: [...MODELS, { id: "claude-legacy-1" }] },
    });
    const api = createTestProvider({ info: { id: "claude-api", label: "Claude API", models: MODELS } });
    const h = await createHarness({ extraProviders: [claude, api] });
    const session = await claudeSession(h, "claude", "claude-legacy-1");
    expect(refusal(await h.call(send(session.id, { provider: "claude-api" }))).code).toBe(
      "REMOTE_RELAY_UNKNOWN_MODEL",
    );
    expect((await h.session(session.id)).provider).toBe("claude");
  });

  it("GAP-01: a session of another provider has no second billing to switch to", async () => {
    const [claude, api] = claudeProviders();
    const h = await createHarness({ extraProviders: [claude, api] });
    const session = await h.agentSession();
    const { code, error } = refusal(await h.call(send(session.id, { provider: "claude-api" })));
    expect(code).toBe("REMOTE_RELAY_PROVIDER_UNAVAILABLE");
    expect(error).toContain('only a Claude session moves between "claude"');
  });
});
