import { serve } from "@hono/node-server";
import { createRelay } from "../compose";
import type { RelayConfig } from "../config";

/** `oar-relay start`: serves the relay until SIGINT or SIGTERM, then closes it (its database last). */
export async function startRelay(config: RelayConfig): Promise<void> {
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
