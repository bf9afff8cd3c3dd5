// One relay of the federation benchmark, in its own process: PGlite in a temporary directory,
// served on a loopback port. Prints one JSON line when it listens.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createRelay, loadConfig } from "@oar/relay";

const name = process.argv[2] ?? "relay";
const ownerToken = `bench-owner-token-${name}`;
const dataDir = await mkdtemp(join(tmpdir(), `oar-bench-${name}-`));
const relay = await createRelay(
  loadConfig({ RELAY_NAME: name, RELAY_DATA_DIR: dataDir, RELAY_OWNER_TOKEN: ownerToken }),
  { logger: { debug() {}, info() {}, warn() {}, error() {} } },
);
const server = serve({ fetch: relay.app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  console.log(JSON.stringify({ ready: true, port: info.port, ownerToken }));
});

process.on("SIGTERM", () => {
  server.close();
  relay.close().then(() => process.exit(0));
});
