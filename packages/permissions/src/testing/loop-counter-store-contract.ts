import { type ContractFixture, type ContractSetup, useContractFixture } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import type { LoopCounterStore } from "../ports";

/** The behaviour every LoopCounterStore must have. */
export function runLoopCounterStoreContract(setup: ContractSetup<ContractFixture<LoopCounterStore>>): void {
  describe("LoopCounterStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;

    it("reads 0 for a conversation never counted", async () => {
      expect(await store().getLoopCounter("ses_conv")).toBe(0);
    });

    it("returns the new count on every increment", async () => {
      expect(await store().incrementLoopCounter("ses_conv")).toBe(1);
      expect(await store().incrementLoopCounter("ses_conv")).toBe(2);
      expect(await store().incrementLoopCounter("ses_conv")).toBe(3);
      expect(await store().getLoopCounter("ses_conv")).toBe(3);
    });

    it("counts each conversation apart", async () => {
      await store().incrementLoopCounter("ses_a");
      await store().incrementLoopCounter("ses_a");
      await store().incrementLoopCounter("ses_b");
      expect(await store().getLoopCounter("ses_a")).toBe(2);
      expect(await store().getLoopCounter("ses_b")).toBe(1);
    });

    it("starts again from zero after a reset", async () => {
      await store().incrementLoopCounter("ses_conv");
      await store().incrementLoopCounter("ses_other");
      await store().resetLoopCounter("ses_conv");
      await store().resetLoopCounter("ses_never");
      expect(await store().getLoopCounter("ses_conv")).toBe(0);
      expect(await store().getLoopCounter("ses_other")).toBe(1);
      expect(await store().incrementLoopCounter("ses_conv")).toBe(1);
    });

    it("loses no increment when many arrive at once", async () => {
      const counts = await Promise.all(
        Array.from({ length: 10 }, () => store().incrementLoopCounter("ses_conv")),
      );
      expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await store().getLoopCounter("ses_conv")).toBe(10);
    });
  });
}
