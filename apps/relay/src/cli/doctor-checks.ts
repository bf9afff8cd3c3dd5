import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { claudeNotFoundMessage, copilotNotFoundMessage, resolveProgram } from "@oar/providers";
import { dataDirHolder, migrationStatus } from "@oar/storage";
import { childEnvironment, type RelayConfig, storageTarget } from "../config";
import { storeLabel } from "./store-label";

export interface Check {
  readonly ok: boolean;
  readonly title: string;
  readonly detail: string;
  /** What to do when it failed. */
  readonly fix?: string;
  /** A failed optional check does not fail the doctor (an agent CLI the user may not want). */
  readonly optional?: boolean;
}

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

async function writable(dir: string): Promise<boolean> {
  return access(dir, constants.W_OK).then(
    () => true,
    () => false,
  );
}

export async function dataDirCheck(config: RelayConfig): Promise<Check> {
  const title = "Data directory";
  const dir = resolve(config.dataDir);
  const holder = await dataDirHolder(dir);
  if (holder !== null) {
    return {
      ok: false,
      title,
      detail: `${dir} is in use by relay process ${holder}.`,
      fix: "Stop that relay to use this directory, or give this one another: --data-dir or RELAY_DATA_DIR.",
    };
  }
  const found = await stat(dir).catch(() => null);
  if (found === null) {
    let parent = dirname(dir);
    while (!(await stat(parent).catch(() => null))) {
      parent = dirname(parent);
    }
    return (await writable(parent))
      ? { ok: true, title, detail: `${dir} does not exist yet; the relay creates it.` }
      : {
          ok: false,
          title,
          detail: `${dir} cannot be created: ${parent} is not writable.`,
          fix: "Choose another --data-dir.",
        };
  }
  if (!found.isDirectory()) {
    return { ok: false, title, detail: `${dir} is not a directory.`, fix: "Choose another --data-dir." };
  }
  const probe = join(dir, `.doctor-${process.pid}`);
  try {
    await writeFile(probe, "");
    await rm(probe);
    return { ok: true, title, detail: `${dir} is writable and no relay holds it.` };
  } catch (cause) {
    return {
      ok: false,
      title,
      detail: `${dir} is not writable: ${messageOf(cause)}`,
      fix: "Fix its permissions, or choose another --data-dir.",
    };
  }
}

export async function databaseCheck(config: RelayConfig): Promise<Check> {
  const title = "Database";
  const target = storageTarget(config);
  if (target.driver === "pglite") {
    const holder = await dataDirHolder(target.dataDir);
    if (holder !== null) {
      return {
        ok: true,
        title,
        detail: `${storeLabel(config)} is open in relay process ${holder}; not read from here.`,
      };
    }
  }
  try {
    const { applied, known } = await migrationStatus(target);
    const latest = known.at(-1) ?? "none";
    if (applied === null) {
      return {
        ok: true,
        title,
        detail: `${storeLabel(config)} does not exist yet; the relay creates and migrates it.`,
      };
    }
    if (applied < known.length) {
      return {
        ok: false,
        title,
        detail: `${storeLabel(config)} answers but has ${applied} of ${known.length} migrations.`,
        fix: "Run oar-relay migrate (oar-relay start migrates too).",
      };
    }
    if (applied > known.length) {
      return {
        ok: false,
        title,
        detail: `${storeLabel(config)} has ${applied} migrations, more than the ${known.length} this version knows: a newer relay migrated it.`,
        fix: "Run that newer version of oar-relay.",
      };
    }
    return {
      ok: true,
      title,
      detail: `${storeLabel(config)} answers and is migrated (${applied} of ${known.length}, latest ${latest}).`,
    };
  } catch (cause) {
    return {
      ok: false,
      title,
      detail: messageOf(cause),
      fix:
        target.driver === "postgres"
          ? "Check DATABASE_URL (--database-url) and that the server runs."
          : "Check the data directory.",
    };
  }
}

export async function allowedRootsCheck(config: RelayConfig): Promise<Check> {
  const title = "Allowed roots";
  const missing: string[] = [];
  for (const root of config.allowedRoots) {
    if (!(await stat(root).catch(() => null))?.isDirectory()) {
      missing.push(root);
    }
  }
  return missing.length === 0
    ? { ok: true, title, detail: config.allowedRoots.join(", ") }
    : {
        ok: false,
        title,
        detail: `not a folder here: ${missing.join(", ")}`,
        fix: "Create it, or change RELAY_ALLOWED_ROOTS (absolute folders separated by ':').",
      };
}

function versionOf(program: string): Promise<string> {
  return new Promise((resolveVersion) => {
    execFile(
      program,
      ["--version"],
      { timeout: 10_000, env: childEnvironment() },
      (error, stdout, stderr) => {
        const line = `${stdout}\n${stderr}`
          .split("\n")
          .find((text) => text.trim() !== "")
          ?.trim();
        resolveVersion(
          error && !line ? `did not answer --version (${error.message})` : (line ?? "no version printed"),
        );
      },
    );
  });
}

export async function agentCheck(agent: "claude" | "copilot", config: RelayConfig): Promise<Check> {
  const bin = agent === "claude" ? config.claudeBin : config.copilotBin;
  const title = agent === "claude" ? "Claude Code" : "GitHub Copilot CLI";
  const program = resolveProgram(agent, bin, childEnvironment());
  if (program === null) {
    return {
      ok: false,
      optional: true,
      title,
      detail: "not found (its providers are listed as not configured)",
      fix: agent === "claude" ? claudeNotFoundMessage(bin) : copilotNotFoundMessage(bin),
    };
  }
  return { ok: true, title, detail: `${await versionOf(program)} (${program})` };
}

export function portCheck(config: RelayConfig): Promise<Check> {
  const title = "Port";
  if (config.port === 0) {
    return Promise.resolve({ ok: true, title, detail: "0: the relay takes any free port" });
  }
  return new Promise((resolveCheck) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      resolveCheck({
        ok: false,
        title,
        detail: `${config.host}:${config.port} ${error.code === "EADDRINUSE" ? "is in use" : `cannot be listened on (${error.message})`}`,
        fix: "Stop what listens there, or choose another: --port or RELAY_PORT.",
      });
    });
    server.listen(config.port, config.host, () => {
      server.close(() => resolveCheck({ ok: true, title, detail: `${config.host}:${config.port} is free` }));
    });
  });
}
