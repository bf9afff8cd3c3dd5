import { describe, expect, it } from "vitest";
import { owner, poll, relayMessages, subscribeFromTurn, useRelayProcesses } from "./support/watching";

describe("watching through a kill -9 of the relay (DESIGN §8)", { timeout: 90_000 }, () => {
  const { dataDir: newDataDir, start } = useRelayProcesses();

  it("DESIGN §8: after kill -9 of the relay, an event it held arrives once, at its due time, from the next process", async () => {
    const dataDir = await newDataDir();
    const first = await start(dataDir);
    const create = (title: string) =>
      owner<{ id: string }>(first.base, "POST", "/v1/owner/sessions", { title });
    const watcher = await create("Lead");
    const worker = await create("Worker");
    await subscribeFromTurn(first.base, watcher.id, { sessions: [worker.id], events: ["turn_end"] });
    await owner(first.base, "POST", `/v1/owner/sessions/${worker.id}/messages`, {
      text: "!reply done before the crash",
    });
    const endedAt = Date.now();
    await poll(async () => {
      const view = await owner<{ turns: { status: string }[] }>(
        first.base,
        "GET",
        `/v1/owner/sessions/${worker.id}`,
      );
      return view.turns[0]?.status === "done" ? true : undefined;
    });
    // Routed into the watcher's 30 s window, not sent yet: the process dies now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await relayMessages(first.base, watcher.id)).toEqual([]);
    first.relay.child.kill("SIGKILL");
    await first.relay.exited;

    const second = await start(dataDir);
    const messages = await poll(async () => {
      const found = await relayMessages(second.base, watcher.id);
      return found.length > 0 ? found : undefined;
    }, 45_000);
    // Not before the window's end (30 s after the event), and exactly once.
    expect(Date.now() - endedAt).toBeGreaterThanOrEqual(29_000);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toContain('turn_end (done) "done before the crash"');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await relayMessages(second.base, watcher.id)).toHaveLength(1);
  });
});
