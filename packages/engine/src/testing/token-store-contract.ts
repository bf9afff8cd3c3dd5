import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { NewToken, TokenStore } from "../ports/token-store";

const hash = (n: number) => n.toString(16).padStart(64, "0");

function token(id: string, n: number, overrides: Partial<NewToken> = {}): NewToken {
  return { id, kind: "agent", hash: hash(n), subject: "ses_1", createdAt: T0, ...overrides };
}

/** The behaviour every TokenStore must have. */
export function runTokenStoreContract(setup: ContractSetup<ContractFixture<TokenStore>>): void {
  describe("TokenStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

    it("stores a token's hash and finds it by that hash", async () => {
      const stored = await store().storeToken(
        token("tok_1", 1, { kind: "owner", subject: "owner", label: "first run" }),
      );
      expect(stored).toEqual({
        id: "tok_1",
        kind: "owner",
        hash: hash(1),
        subject: "owner",
        label: "first run",
        createdAt: T0,
        revokedAt: null,
      });
      expect(await store().findTokenByHash(hash(1))).toEqual(stored);
      expect(await store().findTokenByHash(hash(2))).toBeNull();
    });

    it("refuses a hash that is already stored", async () => {
      await store().storeToken(token("tok_1", 1));
      await expect(store().storeToken(token("tok_2", 1, { kind: "invite" }))).rejects.toThrow();
      expect((await store().findTokenByHash(hash(1)))?.id).toBe("tok_1");
    });

    it("no longer finds a revoked token", async () => {
      await store().storeToken(token("tok_1", 1));
      expect(await store().revokeToken({ id: "tok_1", at: T0 + 1 })).toBe(true);
      expect(await store().findTokenByHash(hash(1))).toBeNull();
      expect(await store().revokeToken({ id: "tok_1", at: T0 + 2 })).toBe(false);
      expect(await store().revokeToken({ id: "tok_missing", at: T0 + 2 })).toBe(false);
    });

    it("revokes every live token of one kind and subject", async () => {
      await store().storeToken(token("tok_1", 1, { kind: "agent", subject: "ses_1" }));
      await store().storeToken(token("tok_2", 2, { kind: "agent", subject: "ses_1" }));
      await store().storeToken(token("tok_3", 3, { kind: "agent", subject: "ses_2" }));
      await store().storeToken(token("tok_4", 4, { kind: "invite", subject: "ses_1" }));
      expect(await store().revokeTokensOf({ kind: "agent", subject: "ses_1", at: T0 + 1 })).toBe(2);
      expect(await store().revokeTokensOf({ kind: "agent", subject: "ses_1", at: T0 + 2 })).toBe(0);
      expect(ids(await store().listTokens())).toEqual(["tok_3", "tok_4"]);
    });

    it("lists live tokens oldest first, by kind and subject", async () => {
      await store().storeToken(
        token("tok_b", 1, { kind: "invite", subject: "build-box", createdAt: T0 + 2 }),
      );
      await store().storeToken(token("tok_a", 2, { kind: "invite", subject: "desk", createdAt: T0 + 1 }));
      await store().storeToken(token("tok_c", 3, { kind: "agent", subject: "ses_1", createdAt: T0 }));
      expect(ids(await store().listTokens())).toEqual(["tok_c", "tok_a", "tok_b"]);
      expect(ids(await store().listTokens({ kind: "invite" }))).toEqual(["tok_a", "tok_b"]);
      expect(ids(await store().listTokens({ kind: "invite", subject: "desk" }))).toEqual(["tok_a"]);
      expect(ids(await store().listTokens({ subject: "ses_1" }))).toEqual(["tok_c"]);
    });

    it("binds a token without a label once: the first label stays, a revoked token takes none", async () => {
      await store().storeToken(token("tok_1", 1, { kind: "invite", subject: "tok_1" }));
      expect(await store().bindToken({ id: "tok_1", label: "desk" })).toBe(true);
      expect(await store().bindToken({ id: "tok_1", label: "desk" })).toBe(true);
      expect(await store().bindToken({ id: "tok_1", label: "laptop" })).toBe(false);
      expect((await store().findTokenByHash(hash(1)))?.label).toBe("desk");
      await store().storeToken(token("tok_2", 2, { kind: "invite", subject: "tok_2", label: "set" }));
      expect(await store().bindToken({ id: "tok_2", label: "desk" })).toBe(false);
      await store().storeToken(token("tok_3", 3, { kind: "invite", subject: "tok_3" }));
      await store().revokeToken({ id: "tok_3", at: T0 + 1 });
      expect(await store().bindToken({ id: "tok_3", label: "desk" })).toBe(false);
      expect(await store().bindToken({ id: "tok_missing", label: "desk" })).toBe(false);
    });

    it("lets one of two simultaneous bindings win", async () => {
      await store().storeToken(token("tok_1", 1, { kind: "invite", subject: "tok_1" }));
      const results = await Promise.all([
        store().bindToken({ id: "tok_1", label: "desk" }),
        store().bindToken({ id: "tok_1", label: "laptop" }),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}
