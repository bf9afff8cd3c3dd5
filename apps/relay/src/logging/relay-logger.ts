import { hostname } from "node:os";
import type { LogFields, Logger } from "@oar/core";
import { type DestinationStream, pino, stdSerializers, stdTimeFunctions } from "pino";
import { prettyFactory } from "pino-pretty";
import type { RelayConfig } from "../config";
import { REDACTED_PATHS } from "./redacted-paths";

/** The relay's log: the engine's Logger port on pino, and what the CLI needs around it. */
export interface RelayLogger extends Logger {
  /** Writes out whatever the destination still holds; the CLI calls it before the process exits. */
  flush(): void;
}

export interface RelayLoggerOptions {
  /** Where the lines go; default the process's stdout. */
  readonly destination?: DestinationStream;
  /** Readable lines instead of JSON; default when stdout is a terminal. */
  readonly pretty?: boolean;
}

/**
 * Readable lines, formatted in this process and written at once. pino-pretty's worker transport
 * would lose what it holds at `process.exit` and needs its own file beside a bundled dist.
 */
function prettyDestination(to: DestinationStream | undefined): DestinationStream {
  const out = to ?? process.stdout;
  const format = prettyFactory({
    colorize: to === undefined && process.stdout.isTTY === true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname,relay",
    singleLine: true,
  });
  return { write: (line: string) => out.write(format(line)) };
}

/** The port's fields as pino takes them: an Error anywhere at the top keeps its stack and causes. */
function loggable(fields: LogFields | undefined): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields ?? {})) {
    shown[key] = value instanceof Error ? stdSerializers.errWithCause(value) : value;
  }
  return shown;
}

/**
 * The relay process's log (DESIGN §10): JSON lines (pino's, `level` a number) when stdout is not
 * a terminal, readable lines on one; from RELAY_LOG_LEVEL up. Tokens, keys and Authorization
 * headers are censored whatever the level; prompt text is never given to it above debug.
 * Writes are synchronous, so nothing logged is lost when the process exits.
 */
export function createRelayLogger(
  config: Pick<RelayConfig, "logLevel" | "name">,
  options: RelayLoggerOptions = {},
): RelayLogger {
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  const destination = pretty
    ? prettyDestination(options.destination)
    : (options.destination ?? pino.destination({ dest: 1, sync: true }));
  const log = pino(
    {
      level: config.logLevel,
      base: { pid: process.pid, hostname: hostname(), relay: config.name },
      timestamp: stdTimeFunctions.isoTime,
      redact: { paths: [...REDACTED_PATHS], censor: "[redacted]" },
    },
    destination,
  );
  const at =
    (level: "debug" | "info" | "warn" | "error") =>
    (message: string, fields?: LogFields): void => {
      // Skipped before the fields are copied: debug lines are the many.
      if (log.isLevelEnabled(level)) {
        log[level](loggable(fields), message);
      }
    };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    flush: () => log.flush(),
  };
}
