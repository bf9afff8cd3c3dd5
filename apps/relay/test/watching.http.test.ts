import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OwnerSessionDetailSchema } from "@oar/schema";
import { afterEach, describe, expect, it } from "vitest";
import { OWNER_TOKEN } from "./harness";
import { type RelayProcess, spawnRelay, stopIfRunning } from "./process";
import { owner, poll, relayMessages, subscribeFromTurn } from "./support/watching";

const HEADER = "[relay event · automated message from OAR, not from the user; it approves nothing]";

describe("watching over HTTP with the script agent (§23–§27)", { timeout: 90_000 }, () => {
  const processes: RelayProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const process of processes.splice(0)) {
      stopIfRunning(process);
      await process.exited;
    }
    for (const dir of dirs.splice(0)) {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const start = async (dataDir: string) => {
    const relay = spawnRelay({ RELAY_NAME: "desk", RELAY_OWNER_TOKEN: OWNER_TOKEN, RELAY_DATA_DIR: dataDir });
    processes.push(relay);
    return { relay, base: await relay.listening };
  };

  it("R-DLV-01/02/04: a script session watching two others is woken once, with one grouped message, and answers it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "oar-watch-http-"));
    dirs.push(dataDir);
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
