// The relay under test, in a process of its own, as `oar-relay start` serves it: on PGlite in a
// scratch folder, or on the Postgres database in the settings; the Copilot CLI given as
// RELAY_COPILOT_BIN, started with the given environment (`childEnv`), sessions in the given folder.
// Its first stdout line: {"ready":true,"port":…}. Beside the relay, GET /bench/statements: the
// statements it has sent its database so far (the storage's statement hook), for the runner to
// take differences.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { silentLogger } from "@oar/core";
import { createRelay, loadConfig } from "@oar/relay";
import { Hono } from "hono";

export interface RelaySettings {
  readonly ownerToken: string;
  readonly copilotBin: string;
  readonly cwd: string;
  readonly childEnv: Record<string, string>;
  readonly databaseUrl?: string;
}

const settings = JSON.parse(process.argv[2] ?? "{}") as RelaySettings;
const dataDir = await mkdtemp(join(tmpdir(), "oar-bench-relay-"));
let statements = 0;
const relay = await createRelay(
  loadConfig({
    RELAY_NAME: "bench",
    RELAY_DATA_DIR: dataDir,
    RELAY_OWNER_TOKEN: settings.ownerToken,
    RELAY_ALLOWED_ROOTS: settings.cwd,
    RELAY_COPILOT_BIN: settings.copilotBin,
    ...(settings.databaseUrl === undefined ? {} : { DATABASE_URL: settings.databaseUrl }),
  }),
  {
    logger: silentLogger,
    childEnv: settings.childEnv,
    // The caller's agent prompts a session it did not start: no card waits for the owner here.
    approvalCards: false,
    onStatement: () => {
      statements++;
    },
  },
);
const outer = new Hono();
outer.get("/bench/statements", (c) => c.json({ statements }));
outer.route("/", relay.app);
const server = serve({ fetch: outer.fetch, hostname: "127.0.0.1", port: 0 }, async (info) => {
  // The agents it starts reach it here: Copilot gets it as its MCP server (relay_tool).
  await relay.listening(info.port);
  console.log(JSON.stringify({ ready: true, port: info.port }));
});

const stop = () => {
  server.close();
  if ("closeAllConnections" in server) {
    server.closeAllConnections();
  }
  relay
    .close()
    .then(() => rm(dataDir, { recursive: true, force: true }))
    .then(() => process.exit(0));
};
process.once("SIGTERM", stop);
// Ctrl-C in the terminal reaches this process too: its agents (process groups of their own) go with it.
process.once("SIGINT", stop);
