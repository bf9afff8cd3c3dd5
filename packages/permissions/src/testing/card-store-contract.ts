import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import type { CardStore, NewCard } from "../ports";

const MINUTE = 60_000;

function card(id: string, overrides: Partial<NewCard> = {}): NewCard {
  return {
    id,
    kind: "first_create_session",
    conversation: "ses_conv",
    action: "create_session",
    targetRelay: "this",
    createdAt: T0,
    expiresAt: T0 + 10 * MINUTE,
    ...overrides,
  };
}

/** The behaviour every CardStore must have. */
export function runCardStoreContract(setup: ContractSetup<ContractFixture<CardStore>>): void {
  describe("CardStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;

    it("creates a pending card and reads it back", async () => {
      const created = await store().createCard(
        card("card_1", {
          kind: "update_other_session",
          action: "update_session",
          targetRelay: "build-box",
          targetSession: "ses_target",
          text: "Change the model of Review: server/?",
          detail: ["Model: script-2 · Effort: low", "Group: Release 2.4 (grp_1)"],
        }),
      );
      expect(created).toEqual({
        id: "card_1",
        kind: "update_other_session",
        conversation: "ses_conv",
        action: "update_session",
        targetRelay: "build-box",
        targetSession: "ses_target",
        text: "Change the model of Review: server/?",
        detail: ["Model: script-2 · Effort: low", "Group: Release 2.4 (grp_1)"],
        status: "pending",
        createdAt: T0,
        answeredAt: null,
        expiresAt: T0 + 10 * MINUTE,
      });
      expect(await store().getCard("card_1")).toEqual(created);
    });

    it("defaults to no target session, an empty text and no detail lines", async () => {
      const created = await store().createCard(card("card_1"));
      expect(created.targetSession).toBeNull();
      expect(created.text).toBe("");
      expect(created.detail).toEqual([]);
      expect(await store().getCard("card_1")).toEqual(created);
    });

    it("refuses a card whose id is stored (STORAGE), and the first stays", async () => {
      await store().createCard(card("card_1", { text: "First" }));
      await expect(store().createCard(card("card_1", { text: "Second" }))).rejects.toMatchObject({
        code: "STORAGE",
      });
      expect((await store().getCard("card_1"))?.text).toBe("First");
    });

    it("returns null for an unknown card", async () => {
      expect(await store().getCard("card_missing")).toBeNull();
    });

    it("lists oldest first and filters by status, conversation and kind", async () => {
      await store().createCard(card("card_late", { createdAt: T0 + 2000 }));
      await store().createCard(card("card_early", { createdAt: T0 + 1000, conversation: "ses_other" }));
      await store().createCard(card("card_same_a", { createdAt: T0 + 3000, kind: "anti_loop" }));
      await store().createCard(card("card_same_b", { createdAt: T0 + 3000 }));
      await store().answerCard({ id: "card_late", decision: "allowed", at: T0 + 4000 });

      const ids = (cards: { id: string }[]) => cards.map((c) => c.id);
      expect(ids(await store().listCards())).toEqual([
        "card_early",
        "card_late",
        "card_same_a",
        "card_same_b",
      ]);
      expect(ids(await store().listCards({ status: "pending" }))).toEqual([
        "card_early",
        "card_same_a",
        "card_same_b",
      ]);
      expect(ids(await store().listCards({ status: "allowed" }))).toEqual(["card_late"]);
      expect(ids(await store().listCards({ conversation: "ses_other" }))).toEqual(["card_early"]);
      expect(ids(await store().listCards({ kind: "anti_loop", status: "pending" }))).toEqual(["card_same_a"]);
    });

    it("records the first answer and refuses every later one", async () => {
      await store().createCard(card("card_1"));
      expect(await store().answerCard({ id: "card_1", decision: "denied", at: T0 + MINUTE })).toBe(true);
      expect(await store().answerCard({ id: "card_1", decision: "allowed", at: T0 + 2 * MINUTE })).toBe(
        false,
      );
      expect(await store().getCard("card_1")).toMatchObject({ status: "denied", answeredAt: T0 + MINUTE });
    });

    it("lets exactly one of two simultaneous answers win", async () => {
      await store().createCard(card("card_1"));
      const results = await Promise.all([
        store().answerCard({ id: "card_1", decision: "allowed", at: T0 + MINUTE }),
        store().answerCard({ id: "card_1", decision: "denied", at: T0 + MINUTE }),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? "allowed" : "denied";
      expect((await store().getCard("card_1"))?.status).toBe(winner);
    });

    it("refuses an answer to an unknown card", async () => {
      expect(await store().answerCard({ id: "card_missing", decision: "allowed", at: T0 })).toBe(false);
    });

    it("refuses an answer that comes at or after the card's expiry, even before it is swept", async () => {
      await store().createCard(card("card_1"));
      expect(await store().answerCard({ id: "card_1", decision: "allowed", at: T0 + 10 * MINUTE })).toBe(
        false,
      );
      expect((await store().getCard("card_1"))?.status).toBe("pending");
      expect(await store().answerCard({ id: "card_1", decision: "allowed", at: T0 + 10 * MINUTE - 1 })).toBe(
        true,
      );
    });

    it("expires pending cards whose expiry has come, and only those", async () => {
      await store().createCard(card("card_due", { expiresAt: T0 + MINUTE }));
      await store().createCard(card("card_exact", { expiresAt: T0 + 2 * MINUTE }));
      await store().createCard(card("card_later", { expiresAt: T0 + 3 * MINUTE }));
      await store().createCard(card("card_answered", { expiresAt: T0 + MINUTE }));
      await store().answerCard({ id: "card_answered", decision: "allowed", at: T0 + 1000 });

      const expired = await store().expireCards(T0 + 2 * MINUTE);
      expect(expired.map((c) => c.id).sort()).toEqual(["card_due", "card_exact"]);
      expect(expired.every((c) => c.status === "expired")).toBe(true);
      expect((await store().getCard("card_later"))?.status).toBe("pending");
      expect((await store().getCard("card_answered"))?.status).toBe("allowed");
      expect(await store().expireCards(T0 + 2 * MINUTE)).toEqual([]);
      expect(await store().answerCard({ id: "card_due", decision: "allowed", at: T0 })).toBe(false);
      expect((await store().getCard("card_due"))?.status).toBe("expired");
    });
  });
}
