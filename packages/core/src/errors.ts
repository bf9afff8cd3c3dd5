import type { ErrorCode, ErrorEnvelope, ErrorExtra, GroupInfo } from "@oar/schema";

/** Codes of failures that never go on the wire: they stay inside this process. */
export const LOCAL_ERROR_CODES = ["TIMEOUT", "NETWORK", "VALIDATION", "DATA_DIR_LOCKED", "STORAGE"] as const;
export type LocalErrorCode = (typeof LOCAL_ERROR_CODES)[number];

export type RelayErrorCode = ErrorCode | LocalErrorCode;

export interface RelayErrorOptions {
  readonly retryable?: boolean;
  readonly context?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

export class RelayError extends Error {
  readonly code: RelayErrorCode;
  readonly retryable: boolean;
  readonly context: Readonly<Record<string, unknown>>;

  constructor(code: RelayErrorCode, message: string, options: RelayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RelayError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.context = options.context ?? {};
  }

  /** Rebuilds, on the receiving side, an error that another relay sent as an envelope. */
  static fromWire(envelope: ErrorEnvelope): RelayError {
    const { ok: _ok, code, error, ...rest } = envelope;
    return new RelayError(code, error, { context: rest });
  }

  isLocal(): boolean {
    return (LOCAL_ERROR_CODES as readonly string[]).includes(this.code);
  }
}

export function isRelayError(value: unknown): value is RelayError {
  return value instanceof RelayError;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}

/**
 * The extra envelope fields of R-ERR-03 (suggestions, models, groups, groupsTotal, remoteCode)
 * that a refusal carries in its context; anything else in the context stays in the process.
 */
export function wireExtraOf(error: RelayError): ErrorExtra {
  const { context } = error;
  const extra: ErrorExtra = {};
  const suggestions = stringList(context.suggestions);
  const models = stringList(context.models);
  if (suggestions) {
    extra.suggestions = suggestions;
  }
  if (models) {
    extra.models = models;
  }
  if (Array.isArray(context.groups)) {
    extra.groups = context.groups as GroupInfo[];
  }
  if (typeof context.groupsTotal === "number") {
    extra.groupsTotal = context.groupsTotal;
  }
  if (typeof context.remoteCode === "string") {
    extra.remoteCode = context.remoteCode;
  }
  return extra;
}
