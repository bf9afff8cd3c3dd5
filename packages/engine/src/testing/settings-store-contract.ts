import { RelayError } from "@oar/core";
import { type ContractFixture, type ContractSetup, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../ports/json";
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

    describe("addToSetting", () => {
      it("starts a key never set from {}, then adds each delta to its field and keeps the others", async () => {
        await store().addToSetting("usage", { turns: 1, costUsd: 0.5 });
        expect(await store().getSetting("usage")).toEqual({ turns: 1, costUsd: 0.5 });
        await store().setSetting("usage", { turns: 2, costUsd: 0.5, note: "kept", nested: { n: 1 } });
        await store().addToSetting("usage", { turns: 1, tokens: 40 });
        expect(await store().getSetting("usage")).toEqual({
          turns: 3,
          costUsd: 0.5,
          note: "kept",
          nested: { n: 1 },
          tokens: 40,
        });
      });

      it("adds as JavaScript adds doubles: fractions, negatives, zero and past 2^53", async () => {
        await store().addToSetting("sums", { f: 0.1, neg: 5, zero: 0, big: 2 ** 53 });
        await store().addToSetting("sums", { f: 0.2, neg: -7.5, zero: 0, big: 1 });
        expect(await store().getSetting("sums")).toEqual({
          f: 0.1 + 0.2,
          neg: -2.5,
          zero: 0,
          big: 2 ** 53 + 1,
        });
      });

      it("counts a field that is not a number as 0, and a value that is not an object as {}", async () => {
        await store().setSetting("fields", { text: "x", flag: true, list: [1], none: null, obj: { a: 1 } });
        await store().addToSetting("fields", { text: 1, flag: 2, list: 3, none: 4, obj: 5 });
        expect(await store().getSetting("fields")).toEqual({ text: 1, flag: 2, list: 3, none: 4, obj: 5 });
        const notObjects: Record<string, JsonValue> = { n: 7, s: "seven", l: [7], nothing: null, t: true };
        for (const [key, value] of Object.entries(notObjects)) {
          await store().setSetting(key, value);
          await store().addToSetting(key, { count: 1 });
          expect(await store().getSetting(key)).toEqual({ count: 1 });
        }
      });

      it("with no deltas, leaves an object as it is and makes any other value {}", async () => {
        await store().addToSetting("never", {});
        expect(await store().getSetting("never")).toEqual({});
        await store().setSetting("kept", { a: 1 });
        await store().addToSetting("kept", {});
        expect(await store().getSetting("kept")).toEqual({ a: 1 });
      });

      it("refuses a delta that is not a finite number, or a sum past the largest double (STORAGE), and changes nothing", async () => {
        await store().setSetting("usage", { turns: 1, huge: Number.MAX_VALUE });
        for (const delta of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
          await expect(store().addToSetting("usage", { turns: 1, bad: delta })).rejects.toMatchObject({
            code: "STORAGE",
          });
        }
        await expect(
          store().addToSetting("usage", { turns: 1, huge: Number.MAX_VALUE }),
        ).rejects.toMatchObject({
          code: "STORAGE",
        });
        expect(await store().getSetting("usage")).toEqual({ turns: 1, huge: Number.MAX_VALUE });
        await expect(store().addToSetting("fresh", { bad: Number.NaN })).rejects.toMatchObject({
          code: "STORAGE",
        });
        expect(await store().getSetting("fresh")).toBeUndefined();
      });

      it("counts every add made at once", async () => {
        await Promise.all(
          Array.from({ length: 50 }, (_, n) => store().addToSetting("usage", { turns: 1, n })),
        );
        expect(await store().getSetting("usage")).toEqual({ turns: 50, n: (49 * 50) / 2 });
      });
    });

    describe("updateSetting", () => {
      it("gives the update undefined for a key never set, and stores and returns what it makes", async () => {
        const seen: (JsonValue | undefined)[] = [];
        const written = await store().updateSetting("settings", (stored) => {
          seen.push(stored);
          return { maxTurnSeconds: 600 };
        });
        expect(seen).toEqual([undefined]);
        expect(written).toEqual({ maxTurnSeconds: 600 });
        expect(await store().getSetting("settings")).toEqual({ maxTurnSeconds: 600 });
      });

      it("gives the update the value stored now, null included, and may store any JSON value", async () => {
        await store().setSetting("k", { a: [1, { b: "c" }] });
        expect(
          await store().updateSetting("k", (stored) => {
            expect(stored).toEqual({ a: [1, { b: "c" }] });
            return null;
          }),
        ).toBeNull();
        expect(await store().getSetting("k")).toBeNull();
        expect(
          await store().updateSetting("k", (stored) => [stored === undefined ? "unset" : stored, "next"]),
        ).toEqual([null, "next"]);
        expect(await store().getSetting("k")).toEqual([null, "next"]);
      });

      it("writes nothing when the update throws, a key never set staying unset; a RelayError passes as it is", async () => {
        await store().setSetting("k", { kept: true });
        const refusal = new RelayError("REMOTE_RELAY_INVALID_INPUT", "refused");
        await expect(
          store().updateSetting("k", () => {
            throw refusal;
          }),
        ).rejects.toBe(refusal);
        expect(await store().getSetting("k")).toEqual({ kept: true });
        await expect(
          store().updateSetting("never", () => {
            throw new Error("bug");
          }),
        ).rejects.toMatchObject({ code: "STORAGE" });
        expect(await store().getSetting("never")).toBeUndefined();
        expect(await store().listSettings()).toEqual({ k: { kept: true } });
      });

      it("runs updates made at once one after the other: each sees what the one before wrote", async () => {
        const count = (stored: JsonValue | undefined) => (typeof stored === "number" ? stored : 0) + 1;
        const written = await Promise.all(
          Array.from({ length: 20 }, () => store().updateSetting("counter", count)),
        );
        expect(await store().getSetting("counter")).toBe(20);
        expect([...written].sort((a, b) => Number(a) - Number(b))).toEqual(
          Array.from({ length: 20 }, (_, n) => n + 1),
        );
      });
    });
  });
}
