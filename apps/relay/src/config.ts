import { homedir, hostname } from "node:os";
import { RelayError } from "@oar/core";
import type { RetentionOptions } from "@oar/engine";
import { z } from "zod";

// One entry of RELAY_ALLOWED_ROOTS: a relative root would depend on where the relay happens to run.
const allowedRoot = z.string().check((ctx) => {
  if (ctx.value === "") {
    ctx.issues.push({ code: "custom", input: ctx.value, message: "an empty entry (':' at an end, or '::')" });
  } else if (!ctx.value.startsWith("/")) {
    ctx.issues.push({ code: "custom", input: ctx.value, message: `"${ctx.value}" is not an absolute path` });
  }
});

/** RELAY_LOG_LEVEL's values: pino's levels, lowest first. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The only place that reads the environment: everything else receives a RelayConfig. */
export const RelayConfigSchema = z.object({
  host: z.string().min(1).default("127.0.0.1"),
  port: z.coerce.number().int().min(0).max(65_535).default(8787),
  name: z
    .string()
    .min(1)
    .max(63)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only"),
  ownerToken: z.string().min(16, "at least 16 characters").optional(),
  dataDir: z.string().min(1).default("./.relay"),
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "a postgres:// or postgresql:// URL")
    .optional(),
  /** Folders sessions may use, each absolute; the first is the default folder of new sessions (DESIGN §7). */
  allowedRoots: z.array(allowedRoot).min(1),
  /** The `claude` CLI of the Claude Code providers; absent, it is looked for on PATH (DESIGN §4). */
  claudeBin: z.string().min(1).optional(),
  /** The `copilot` CLI of the Copilot provider; absent, it is looked for on PATH (DESIGN §4). */
  copilotBin: z.string().min(1).optional(),
  /** How often old rows are pruned (DESIGN §9); 0 turns pruning off; absent, every minute. */
  pruneEverySeconds: z.coerce.number().int().min(0).max(86_400).optional(),
  /** Rows one pruning statement deletes at most; absent, 500. */
  pruneBatch: z.coerce.number().int().min(1).max(5_000).optional(),
  /** Tool calls kept per conversation, the newest; at least the 200 its activity shows (R-UI-02). */
  toolCallsKept: z.coerce.number().int().min(200).max(1_000_000).optional(),
  /**
   * How the other processes of a cluster on one Postgres reach this one (DESIGN §9); absent, its
   * loopback address, which serves processes on one machine.
   */
  clusterUrl: z.url({ protocol: /^https?$/, error: "an http:// or https:// URL" }).optional(),
  /** The log's threshold (pino's levels); `silent` logs nothing. */
  logLevel: z.enum(LOG_LEVELS).default("info"),
});

export type RelayConfig = z.infer<typeof RelayConfigSchema>;

const ENV_NAMES: Record<keyof RelayConfig, string> = {
  host: "RELAY_HOST",
  port: "RELAY_PORT",
  name: "RELAY_NAME",
  ownerToken: "RELAY_OWNER_TOKEN",
  dataDir: "RELAY_DATA_DIR",
  databaseUrl: "DATABASE_URL",
  allowedRoots: "RELAY_ALLOWED_ROOTS",
  claudeBin: "RELAY_CLAUDE_BIN",
  copilotBin: "RELAY_COPILOT_BIN",
  pruneEverySeconds: "RELAY_PRUNE_EVERY_SECONDS",
  pruneBatch: "RELAY_PRUNE_BATCH",
  toolCallsKept: "RELAY_TOOL_CALLS_KEPT",
  clusterUrl: "RELAY_CLUSTER_URL",
  logLevel: "RELAY_LOG_LEVEL",
};

export type Env = Readonly<Record<string, string | undefined>>;

// The relay's own secrets stay with it: a task or a CLI agent it starts gets an agent token instead.
const NOT_FOR_CHILDREN = ["RELAY_OWNER_TOKEN", "DATABASE_URL"];

/**
 * The environment the relay's children (background tasks, command CLIs, Claude Code) start from:
 * the relay's own, so PATH, proxies and the CLIs' settings work, without the relay's secrets.
 */
export function childEnvironment(env: Env = process.env): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !NOT_FOR_CHILDREN.includes(name)));
}

/** The command line's flags (`oar-relay start --port …`), each standing for its variable. */
export interface ConfigFlags {
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly name?: string | undefined;
  readonly dataDir?: string | undefined;
  readonly databaseUrl?: string | undefined;
}

/** The configuration with the flags given in place of their variables (a flag wins). */
export function loadConfigWithFlags(flags: ConfigFlags, env: Env = process.env): RelayConfig {
  const keys: readonly (keyof ConfigFlags)[] = ["host", "port", "name", "dataDir", "databaseUrl"];
  const given = keys.filter((key) => flags[key] !== undefined);
  return loadConfig({ ...env, ...Object.fromEntries(given.map((key) => [ENV_NAMES[key], flags[key]])) });
}

export function loadConfig(env: Env = process.env): RelayConfig {
  const read = (key: keyof RelayConfig) => {
    const value = env[ENV_NAMES[key]];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  };
  const parsed = RelayConfigSchema.safeParse({
    host: read("host"),
    port: read("port"),
    name: read("name") ?? defaultRelayName(),
    ownerToken: read("ownerToken"),
    dataDir: read("dataDir"),
    databaseUrl: read("databaseUrl"),
    // Separated by ':' like PATH.
    allowedRoots: read("allowedRoots")?.split(":") ?? defaultAllowedRoots(),
    claudeBin: read("claudeBin"),
    copilotBin: read("copilotBin"),
    pruneEverySeconds: read("pruneEverySeconds"),
    pruneBatch: read("pruneBatch"),
    toolCallsKept: read("toolCallsKept"),
    clusterUrl: read("clusterUrl"),
    logLevel: read("logLevel"),
  });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = issue.path[0] as keyof RelayConfig;
      return `${ENV_NAMES[key] ?? String(key)}: ${issue.message}`;
    });
    throw new RelayError("VALIDATION", `The relay's configuration is not valid:\n  ${lines.join("\n  ")}`);
  }
  return parsed.data;
}

/**
 * How the engine prunes old rows (DESIGN §9): what the configuration sets, the engine's defaults
 * for the rest (the catalogue's spans); `undefined` when RELAY_PRUNE_EVERY_SECONDS is 0.
 */
export function retentionOptions(config: RelayConfig): RetentionOptions | undefined {
  if (config.pruneEverySeconds === 0) {
    return undefined;
  }
  return {
    ...(config.pruneEverySeconds === undefined ? {} : { everyMs: config.pruneEverySeconds * 1_000 }),
    ...(config.pruneBatch === undefined ? {} : { batchSize: config.pruneBatch }),
    ...(config.toolCallsKept === undefined ? {} : { toolCallsKept: config.toolCallsKept }),
  };
}

/** A data directory in memory (tests): there is no folder to write task output under. */
export function isEmbeddedInMemory(config: RelayConfig): boolean {
  return config.dataDir.startsWith("memory://");
}

export type StorageTarget = { driver: "pglite"; dataDir: string } | { driver: "postgres"; url: string };

/** DATABASE_URL switches from the embedded PGlite to Postgres (DESIGN §3). */
export function storageTarget(config: RelayConfig): StorageTarget {
  return config.databaseUrl
    ? { driver: "postgres", url: config.databaseUrl }
    : { driver: "pglite", dataDir: config.dataDir };
}

/** Where the relay starts, then the user's home, as DESIGN §4 says; the same folder once. */
function defaultAllowedRoots(): string[] {
  return [...new Set([process.cwd(), homedir()])];
}

function defaultRelayName(): string {
  // A host name like "desk.local" becomes "desk"; anything the schema refuses falls back to "relay".
  const short = hostname().split(".")[0] ?? "";
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(short) ? short : "relay";
}
