import { FakeClock } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import { createMemoryTokenStore } from "../src/testing";
import { cachingTokenStore } from "../src/tokens/token-cache";

const T0 = Date.parse("2026-11-29T10:00:00Z");

function setup() {
  const clock = new FakeClock(T0);
  const inner = createMemoryTokenStore();
  let lookups = 0;
  const counted = {
    ...inner,
    findTokenByHash: (hash: string) => {
      lookups++;
      return inner.findTokenByHash(hash);
    },
  };
  return { clock, inner, store: cachingTokenStore(counted, { clock, ttlMs: 1000 }), lookups: () => lookups };
}

const token = { id: "tok_1", kind: "agent" as const, hash: "h1", subject: "ses_1", createdAt: T0 };

describe("token lookups (DESIGN §7, §9)", () => {
  it("remembers a live token for the TTL", async () => {
    const { store, lookups } = setup();
    await store.storeToken(token);
    expect((await store.findTokenByHash("h1"))?.subject).toBe("ses_1");
    expect((await store.findTokenByHash("h1"))?.subject).toBe("ses_1");
    expect(lookups()).toBe(1);
  });

  it("refuses a token revoked through this process at once", async () => {
    const { store } = setup();
    await store.storeToken(token);
    await store.findTokenByHash("h1");
    await store.revokeTokensOf({ kind: "agent", subject: "ses_1", at: T0 + 1 });
    expect(await store.findTokenByHash("h1")).toBeNull();
  });

  it("sees another process's revocation once the TTL has passed, not later", async () => {
    const { store, inner, clock } = setup();
    await store.storeToken(token);
    await store.findTokenByHash("h1");
    await inner.revokeToken({ id: "tok_1", at: T0 });
    clock.advance(1000);
    expect(await store.findTokenByHash("h1")).toBeNull();
  });

  it("never remembers an unknown token, so a new one works at once", async () => {
    const { store, inner, lookups } = setup();
    expect(await store.findTokenByHash("h1")).toBeNull();
    await inner.storeToken(token);
    expect((await store.findTokenByHash("h1"))?.id).toBe("tok_1");
    expect(lookups()).toBe(2);
  });
});
