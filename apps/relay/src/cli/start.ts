#!/usr/bin/env node
import { serve } from "@hono/node-server";
import { isRelayError } from "@oar/core";
import { createRelay } from "./compose";
import { loadConfig } from "./config";

const USAGE = `Usage: oar-relay start

  start   start the relay (configuration from RELAY_HOST, RELAY_PORT, RELAY_NAME,
          RELAY_OWNER_TOKEN, RELAY_DATA_DIR, DATABASE_URL, RELAY_ALLOWED_ROOTS,
          RELAY_CLAUDE_BIN, RELAY_COPILOT_BIN, RELAY_CLUSTER_URL)`;

async function start(): Promise<void> {
  const config = loadConfig();
  const relay = await createRelay(config);
  const server = serve({ fetch: relay.app.fetch, hostname: config.host, port: config.port }, async (info) => {
    // Announced first: once this says it listens, the cluster's other processes find it too.
    await relay.listening(info.port);
    const { services } = relay;
    const store =
      services.storage.driver === "pglite" ? `PGlite in ${config.dataDir}` : "Postgres (DATABASE_URL)";
    const token =
      services.ownerTokenSource === "env"
        ? "from RELAY_OWNER_TOKEN"
        : `${services.ownerToken} (kept in ${config.dataDir})`;
    const base = `http://${config.host}:${info.port}`;
    console.log(`OAR relay "${config.name}" listening on ${base}`);
    console.log(`  store: ${store}`);
    console.log(`  owner token: ${token}`);
    console.log(`  owner API: ${base}/v1/owner (bearer: the owner token)`);
    console.log(`  MCP: ${base}/mcp · plain calls: POST ${base}/v1/tool (bearer: a session's agent token)`);
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log(`${signal}: stopping`);
    server.close();
    relay.close().then(
      () => process.exit(0),
      (cause) => {
        console.error(cause);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

async function main(argv: readonly string[]): Promise<number> {
  const [command] = argv;
  if (command === "start") {
    await start();
    return 0;
  }
  if (command === undefined || command === "--help" || command === "help") {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  console.error(`oar-relay: unknown command "${command}"\n\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) {
      process.exit(code);
    }
  },
  (cause) => {
    console.error(isRelayError(cause) ? `oar-relay: ${cause.message}` : cause);
    process.exit(1);
  },
);
