import { join } from "node:path";
import { type Clock, createIdGenerator, type IdGenerator, type Logger, systemClock } from "@oar/core";
import { createEngine, type Engine, type Provider, type RunnerProcess } from "@oar/engine";
import {
  acpProviderSource,
  apiChatProviderSource,
  claudeProviderSource,
  commandProviderSource,
  copilotProviderSource,
  createExternalProvider,
  createScriptProvider,
} from "@oar/providers";
import {
  databaseAnswers,
  openStorage,
  readRelayGauges,
  type StatementListener,
  type Storage,
} from "@oar/storage";
import type { Hono } from "hono";
import { CLUSTER_SECRET_KEY, createClusterLink } from "./cluster-link";
import {
  childEnvironment,
  isEmbeddedInMemory,
  type RelayConfig,
  retentionOptions,
  storageTarget,
} from "./config";
import { createFolderResolver } from "./folder-resolver";
import { newApp } from "./http/app";
import { OpenStreams } from "./http/owner-event-stream";
import { createRelayLogger } from "./logging/relay-logger";
import { createRelayMetrics, type RelayMetrics } from "./metrics/relay-metrics";
import { resolveOwnerToken } from "./owner-token";
import { createPeerLink } from "./peer-link";
import { newRelayInstance, RELAY_INSTANCE_VARIABLE, thisRunnerProcess } from "./runner-process";
import { nodeTokenSecrets } from "./token-secrets";
import { RELAY_VERSION } from "./version";

export interface RelayServices {
  readonly config: RelayConfig;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** This relay's metrics (GET /metrics), in a registry of its own. */
  readonly metrics: RelayMetrics;
  readonly storage: Storage;
  readonly engine: Engine;
  readonly ownerToken: string;
  readonly ownerTokenSource: "env" | "file" | "generated";
}

export interface Relay {
  readonly app: Hono;
  readonly services: RelayServices;
  /**
   * The relay listens on this port now: the CLI agents it starts reach it there (OAR_RELAY_URL,
   * Claude Code's MCP config). Until then they get no relay access.
   */
  listening(port: number): Promise<void>;
  /** Ends the owner's event streams, closes the engine (every worker), then the store. Idempotent. */
  close(): Promise<void>;
}

export interface RelayOverrides {
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /** Default: pino on stdout at RELAY_LOG_LEVEL (`createRelayLogger`). */
  readonly logger?: Logger;
  /** Default: the built-in `script` provider and `external` (DESIGN §5). */
  readonly providers?: readonly Provider[];
  /** How often long waits write a keep-alive (default 25 s, DESIGN §4). */
  readonly keepAliveMs?: number;
  /** Approval cards gate agents' calls (DESIGN GAP-04); default on. Tests of other things may turn them off. */
  readonly approvalCards?: boolean;
  /** How this relay reaches paired relays; default the global fetch. Tests pass another relay's app. */
  readonly peerFetch?: typeof globalThis.fetch;
  /** The environment children start from (tasks, CLIs); default the relay's own without its secrets. */
  readonly childEnv?: Readonly<Record<string, string | undefined>>;
  /** Told each statement sent to the database: the benchmarks and the statement budget count them. */
  readonly onStatement?: StatementListener;
  /** This process as its lease names it; default the OS process (tests stand for processes of other hosts). */
  readonly runnerProcess?: RunnerProcess;
  /** How this process calls the others of its cluster; default the global fetch. */
  readonly clusterFetch?: typeof globalThis.fetch;
}

/** The composition root: the one place that wires config, storage, the engine and the HTTP surface. */
export async function createRelay(config: RelayConfig, overrides: RelayOverrides = {}): Promise<Relay> {
  const owner = await resolveOwnerToken({ configured: config.ownerToken, dataDir: config.dataDir });
  const target = storageTarget(config);
  const metrics = createRelayMetrics({ name: config.name, version: RELAY_VERSION });
  const storage = await openStorage({
    ...target,
    onStoreCall: metrics.onStoreCall,
    ...(overrides.onStatement === undefined ? {} : { onStatement: overrides.onStatement }),
  });
  metrics.describeDatabase(storage.driver, storage.maxConnections);
  const clock = overrides.clock ?? systemClock;
  const ids = overrides.ids ?? createIdGenerator();
  const logger = overrides.logger ?? createRelayLogger(config);
  // Every process this relay starts carries its instance, so that nothing it started outlives it.
  const instance = newRelayInstance();
  const childEnv = { ...(overrides.childEnv ?? childEnvironment()), [RELAY_INSTANCE_VARIABLE]: instance };
  let relayUrl: string | undefined;
  // Its lease names this process, so that a relay started here after a crash ends its turns at once.
  const runnerProcess = overrides.runnerProcess ?? thisRunnerProcess(instance);
  // Other processes on the same Postgres are this relay's cluster (DESIGN §9); the secret is the database's.
  const clusterSecret =
    storage.driver === "postgres" ? await storage.stores.settings.getSetting(CLUSTER_SECRET_KEY) : undefined;
  const cluster =
    typeof clusterSecret === "string"
      ? createClusterLink({
          secret: clusterSecret,
          ...(overrides.clusterFetch === undefined ? {} : { fetch: overrides.clusterFetch }),
        })
      : undefined;
  const retention = retentionOptions(config);
  const engine = createEngine({
    stores: storage.stores,
    providers: overrides.providers ?? [createScriptProvider(), createExternalProvider()],
    providerSources: [
      commandProviderSource({ env: childEnv }),
      claudeProviderSource({
        env: childEnv,
        ...(config.claudeBin === undefined ? {} : { bin: config.claudeBin }),
        // claude-cloud's clones: under the data dir, never inside the owner's folders.
        ...(isEmbeddedInMemory(config) ? {} : { workspaceDir: join(config.dataDir, "workspaces") }),
      }),
      copilotProviderSource({
        env: childEnv,
        clock,
        ...(config.copilotBin === undefined ? {} : { bin: config.copilotBin }),
      }),
      acpProviderSource({ env: childEnv, clock }),
      apiChatProviderSource(),
    ],
    relayUrl: () => relayUrl,
    childEnv,
    ...(isEmbeddedInMemory(config) ? {} : { taskOutputDir: join(config.dataDir, "tasks") }),
    clock,
    ids,
    logger,
    observer: metrics.observer,
    relay: { name: config.name, version: RELAY_VERSION, platform: `${process.platform}-${process.arch}` },
    approvalCards: overrides.approvalCards ?? true,
    // Several relay processes may share a Postgres database; the embedded one is locked to this one.
    sharedStore: storage.driver === "postgres",
    // Old rows pruned as claimed due work on the clock (DESIGN §9), unless configured off.
    ...(retention === undefined ? {} : { retention }),
    ...(runnerProcess === undefined ? {} : { runnerProcess }),
    ...(cluster === undefined ? {} : { cluster }),
    secrets: nodeTokenSecrets,
    allowedRoots: config.allowedRoots,
    folders: createFolderResolver(),
    peerLink: createPeerLink(overrides.peerFetch === undefined ? {} : { fetch: overrides.peerFetch }),
  });
  try {
    // Restart recovery: turns the last process left running end as `error`; queued ones start.
    await engine.start();
  } catch (cause) {
    await engine.close();
    await storage.close();
    throw cause;
  }
  const services: RelayServices = {
    config,
    clock,
    ids,
    logger,
    metrics,
    storage,
    engine,
    ownerToken: owner.token,
    ownerTokenSource: owner.source,
  };
  const streams = new OpenStreams();
  const app = newApp(
    { name: config.name, version: RELAY_VERSION, databaseAnswers: () => databaseAnswers(storage) },
    {
      engine,
      ownerToken: owner.token,
      ids,
      clock,
      logger,
      streams,
      clusterSecret: typeof clusterSecret === "string" ? clusterSecret : undefined,
      metrics: {
        scrape: () => metrics.scrape(() => readRelayGauges(storage)),
        contentType: metrics.registry.contentType,
        onRequest: metrics.onRequest,
      },
      ...(overrides.keepAliveMs === undefined ? {} : { keepAliveMs: overrides.keepAliveMs }),
    },
  );
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    const current =
      closing ??
      streams
        .close()
        .then(() => engine.close())
        .finally(() => storage.close());
    closing = current;
    return current;
  };
  const listening = async (port: number) => {
    // A relay listening on every interface is still reached by its own children on loopback.
    const host = ["0.0.0.0", "::", ""].includes(config.host) ? "127.0.0.1" : config.host;
    relayUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    if (cluster !== undefined) {
      // On one machine the loopback address serves; processes on several say how they are reached.
      await engine.announce(config.clusterUrl ?? relayUrl);
    }
  };
  return { app, services, close, listening };
}
