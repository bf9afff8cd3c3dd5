import type { ErrorCode, ErrorEnvelope } from "@oar/schema";

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
