import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import type { UnlockStore } from "../ports";

/** The behaviour every UnlockStore must have. */
export function runUnlockStoreContract(setup: ContractSetup<ContractFixture<UnlockStore>>): void {
  describe("UnlockStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const key = { conversation: "ses_conv", relay: "build-box" };

    it("starts with every relay locked", async () => {
      expect(await store().getRelayUnlock(key)).toBeNull();
      expect(await store().isRelayUnlocked(key)).toBe(false);
      expect(await store().listRelayUnlocks("ses_conv")).toEqual([]);
    });

    it("unlocks a relay for one conversation only", async () => {
      const unlock = await store().unlockRelay({ ...key, how: "mention", at: T0 });
      expect(unlock).toEqual({
        conversation: "ses_conv",
        relay: "build-box",
        how: "mention",
        unlockedAt: T0,
      });
      expect(await store().getRelayUnlock(key)).toEqual(unlock);
      expect(await store().isRelayUnlocked(key)).toBe(true);
      expect(await store().isRelayUnlocked({ conversation: "ses_other", relay: "build-box" })).toBe(false);
      expect(await store().isRelayUnlocked({ conversation: "ses_conv", relay: "desk" })).toBe(false);
    });

    it("keeps the first unlock when unlocked again the same way", async () => {
      await store().unlockRelay({ ...key, how: "agent", at: T0 });
      const again = await store().unlockRelay({ ...key, how: "agent", at: T0 + 1000 });
      expect(again).toMatchObject({ how: "agent", unlockedAt: T0 });
      expect(await store().listRelayUnlocks("ses_conv")).toHaveLength(1);
    });

    it("upgrades an agent unlock to a mention, keeping when it was first unlocked", async () => {
      await store().unlockRelay({ ...key, how: "agent", at: T0 });
      const upgraded = await store().unlockRelay({ ...key, how: "mention", at: T0 + 1000 });
      expect(upgraded).toMatchObject({ how: "mention", unlockedAt: T0 });
      expect(await store().getRelayUnlock(key)).toMatchObject({ how: "mention" });
    });

    it("never downgrades a mention to an agent unlock", async () => {
      await store().unlockRelay({ ...key, how: "mention", at: T0 });
      const again = await store().unlockRelay({ ...key, how: "agent", at: T0 + 1000 });
      expect(again.how).toBe("mention");
      expect((await store().getRelayUnlock(key))?.how).toBe("mention");
    });

    it("lists a conversation's unlocks oldest first", async () => {
      await store().unlockRelay({ conversation: "ses_conv", relay: "zeta", how: "mention", at: T0 + 2000 });
      await store().unlockRelay({ conversation: "ses_conv", relay: "alpha", how: "agent", at: T0 + 1000 });
      await store().unlockRelay({ conversation: "ses_other", relay: "beta", how: "mention", at: T0 });
      const unlocks = await store().listRelayUnlocks("ses_conv");
      expect(unlocks.map((u) => [u.relay, u.how])).toEqual([
        ["alpha", "agent"],
        ["zeta", "mention"],
      ]);
    });

    it("forgets a relay in every conversation, whatever the case, and nothing else", async () => {
      await store().unlockRelay({ conversation: "ses_conv", relay: "build-box", how: "mention", at: T0 });
      await store().unlockRelay({ conversation: "ses_other", relay: "Build-Box", how: "agent", at: T0 });
      await store().unlockRelay({ conversation: "ses_conv", relay: "desk", how: "mention", at: T0 });
      expect(await store().forgetRelay("BUILD-BOX")).toBe(2);
      expect(await store().isRelayUnlocked(key)).toBe(false);
      expect(await store().listRelayUnlocks("ses_other")).toEqual([]);
      expect((await store().listRelayUnlocks("ses_conv")).map((u) => u.relay)).toEqual(["desk"]);
      expect(await store().forgetRelay("build-box")).toBe(0);
      // Unlocked again, it is a new unlock.
      expect(await store().unlockRelay({ ...key, how: "agent", at: T0 + 5 })).toMatchObject({
        how: "agent",
        unlockedAt: T0 + 5,
      });
    });
  });
}
