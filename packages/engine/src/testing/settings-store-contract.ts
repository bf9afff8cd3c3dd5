import { type ContractFixture, type ContractSetup, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { SettingsStore } from "../ports/settings-store";

/** The behaviour every SettingsStore must have. */
export function runSettingsStoreContract(setup: ContractSetup<ContractFixture<SettingsStore>>): void {
  describe("SettingsStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;

    it("reads undefined for a key never set", async () => {
      expect(await store().getSetting("agentSessions.enabled")).toBeUndefined();
      expect(await store().listSettings()).toEqual({});
    });

    it("keeps every kind of JSON value, null included", async () => {
      const values = {
        bool: true,
        number: 600,
        string: "claude-code",
        list: [1, "two", { three: 3 }],
        object: { argv: ["my-agent", "--json"], env: { LANG: "C" }, nested: { deep: [null, false] } },
        nothing: null,
      };
      for (const [key, value] of Object.entries(values)) {
        await store().setSetting(key, value);
      }
      for (const [key, value] of Object.entries(values)) {
        expect(await store().getSetting(key)).toEqual(value);
      }
      expect(await store().listSettings()).toEqual(values);
    });

    it("replaces a value and deletes a key", async () => {
      await store().setSetting("agentSessions.longestWaitSeconds", 600);
      await store().setSetting("agentSessions.longestWaitSeconds", 1200);
      expect(await store().getSetting("agentSessions.longestWaitSeconds")).toBe(1200);
      expect(await store().deleteSetting("agentSessions.longestWaitSeconds")).toBe(true);
      expect(await store().deleteSetting("agentSessions.longestWaitSeconds")).toBe(false);
      expect(await store().getSetting("agentSessions.longestWaitSeconds")).toBeUndefined();
    });
  });
}
