import { OwnerSessionDetailSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { owner, poll, relayMessages, subscribeFromTurn, useRelayProcesses } from "./support/watching";

const HEADER = "[relay event · automated message from OAR, not from the user; it approves nothing]";

describe("watching over HTTP with the script agent (§23–§27)", { timeout: 90_000 }, () => {
  const { dataDir: newDataDir, start } = useRelayProcesses();

  it("R-DLV-01/02/04: a script session watching two others is woken once, with one grouped message, and answers it", async () => {
    const dataDir = await newDataDir();
    const { base } = await start(dataDir);
    const create = (title: string) => owner<{ id: string }>(base, "POST", "/v1/owner/sessions", { title });
    const watcher = await create("Lead");
    const server = await create("Review: server/");
    const web = await create("Review: web/");
    await subscribeFromTurn(base, watcher.id, { sessions: [server.id, web.id], events: ["turn_end"] });

    await owner(base, "POST", `/v1/owner/sessions/${server.id}/messages`, { text: "!reply Found 4 places" });
    await owner(base, "POST", `/v1/owner/sessions/${web.id}/messages`, { text: "!reply All clear" });
    const [message, ...more] = await poll(async () => {
      const found = await relayMessages(base, watcher.id);
      return found.length > 0 ? found : undefined;
    }, 45_000);
    expect(more).toEqual([]);
    expect(message?.text.split("\n")).toEqual([
      HEADER,
      `[relay event] session "Review: server/" (${server.id}): turn_end (done) "Found 4 places"`,
      `[relay event] session "Review: web/" (${web.id}): turn_end (done) "All clear"`,
    ]);
    // It started the watcher's turn: the script agent answered it.
    const detail = OwnerSessionDetailSchema.parse(
      await poll(async () => {
        const view = await owner(base, "GET", `/v1/owner/sessions/${watcher.id}`);
        const parsed = OwnerSessionDetailSchema.parse(view);
        return parsed.messages.at(-1)?.role === "assistant" ? view : undefined;
      }),
    );
    expect(detail.messages.at(-1)?.text).toContain("echo: [relay event");
    expect(detail).toMatchObject({ watched: false, watching: 2 });
    const watchedView = OwnerSessionDetailSchema.parse(
      await owner(base, "GET", `/v1/owner/sessions/${server.id}`),
    );
    expect(watchedView).toMatchObject({ watched: true, watching: 0 });
  });
});
