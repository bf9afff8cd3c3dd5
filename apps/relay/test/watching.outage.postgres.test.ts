import { describe, expect, it } from "vitest";
import { eventually } from "./harness";
import { TEST_POSTGRES_URL } from "./support/postgres";
import { useRelayThroughProxy } from "./support/proxied-relay";

interface Message {
  readonly role: string;
  readonly text: string;
}

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  "watching while the database goes away (DESIGN §4, §9)",
  { timeout: 60_000 },
  () => {
    const relayThroughProxy = useRelayThroughProxy();

    it("a turn that errs while the link is cut: its event reaches the watcher once, after the link is back", async () => {
      const { relay, proxy } = await relayThroughProxy({ approvalCards: false });
      const watcher = await relay.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", { title: "Lead" });
      const worker = await relay.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", { title: "Worker" });
      const token = await relay.agentToken(watcher.id);
      const subscribed = await relay.tool(token, {
        action: "subscribe",
        sessions: [worker.id],
        events: ["error"],
      });
      expect(await subscribed.json()).toMatchObject({ ok: true });

      await relay.ownerJson("POST", `/v1/owner/sessions/${worker.id}/messages`, {
        text: "!sleep 1500\n!error broke while the database was away",
      });
      await eventually(async () => {
        const view = await relay.ownerJson<{ turns: { status: string }[] }>(
          "GET",
          `/v1/owner/sessions/${worker.id}`,
        );
        return view.turns[0]?.status === "running" ? true : undefined;
      });
      // The turn ends, its event is written and the watcher is sent to, all across the cut.
      await proxy.cut();
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await proxy.restore();

      const relayMessages = async () =>
        (
          await relay.ownerJson<{ messages: Message[] }>("GET", `/v1/owner/sessions/${watcher.id}`)
        ).messages.filter((message) => message.role === "relay");
      const [message] = await eventually(async () => {
        const found = await relayMessages().catch(() => []);
        return found.length > 0 ? found : undefined;
      }, 30_000);
      expect(message?.text).toContain('error "broke while the database was away"');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await relayMessages()).toHaveLength(1);
    });
  },
);
