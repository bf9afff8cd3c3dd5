import { describe, expect, it } from "vitest";
import { eventually } from "./harness";
import { TEST_POSTGRES_URL } from "./support/postgres";
import { useRelayThroughProxy } from "./support/proxied-relay";

interface Message {
  readonly role: string;
  readonly text: string;
  readonly createdAt: number;
}

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  "schedules while the database goes away (DESIGN §8, §9)",
  { timeout: 60_000 },
  () => {
    const relayThroughProxy = useRelayThroughProxy();

    it("slots that come while the link is cut fire once each when it is back; none is lost or doubled", async () => {
      const { relay, proxy } = await relayThroughProxy();
      const planner = await relay.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        provider: "external",
        title: "Planner",
      });
      const token = await relay.agentToken(planner.id);
      const start = Date.now() + 2_000;
      // Asked for all at once: the lead covers one round of calls, however slow the machine is.
      const ids = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const response = await relay.tool(token, {
            action: "schedule",
            title: `s${i}`,
            at: new Date(start + i * 100).toISOString(),
            text: `firing ${i}`,
          });
          const result = (await response.json()) as { ok: boolean; schedule_id: string };
          expect(result.ok, JSON.stringify(result)).toBe(true);
          return result.schedule_id;
        }),
      );
      // Cut before the first slot, restored after the last: every firing meets the outage.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, start - Date.now() - 500)));
      await proxy.cut();
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await proxy.restore();

      const fired = async () => {
        const view = await relay.ownerJson<{ messages: Message[] }>(
          "GET",
          `/v1/owner/sessions/${planner.id}`,
        );
        return view.messages.filter((m) => m.role === "relay" && m.text.startsWith("[relay schedule "));
      };
      await eventually(async () => {
        const found = await fired().catch(() => []);
        return found.length >= 20 ? found : undefined;
      }, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const messages = await fired();
      const counts = ids.map(
        (id) => messages.filter((m) => m.text.startsWith(`[relay schedule ${id} `)).length,
      );
      expect(counts).toEqual(ids.map(() => 1));
      // None went out before its time.
      expect(Math.min(...messages.map((m) => m.createdAt))).toBeGreaterThanOrEqual(start);
    });
  },
);
