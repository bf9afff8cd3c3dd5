import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OWNER_TOKEN } from "./harness";
import { spawnRelay, stopIfRunning } from "./process";
import { connectEvents, SseReader } from "./support/sse";

describe("GET /v1/owner/events of `oar-relay start` (DESIGN §4)", { timeout: 60_000 }, () => {
  it("lets `oar-relay start` stop on SIGTERM while a stream is open: the stream ends and the process exits 0", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oar-events-process-"));
    const child = spawnRelay({ RELAY_NAME: "desk", RELAY_OWNER_TOKEN: OWNER_TOKEN, RELAY_DATA_DIR: dir });
    try {
      const base = await child.listening;
      const response = await connectEvents(base, { token: OWNER_TOKEN });
      expect(response.status).toBe(200);
      const stream = new SseReader(response);
      child.child.kill("SIGTERM");
      await stream.untilEnd();
      expect(await child.exited).toBe(0);
    } finally {
      stopIfRunning(child);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
