import { isRelayError, RelayError } from "@oar/core";
import {
  type ErrorCode,
  type ErrorEnvelope,
  type ErrorExtra,
  errorEnvelope,
  type GroupInfo,
} from "@oar/schema";

/**
 * Ends an action with a refusal the agent can act on. Actions throw it (a wire code and the extra
 * fields of R-ERR-03 in `context`); `execute` turns it into the error envelope, so no action
 * builds envelopes itself.
 */
export function refuse(code: ErrorCode, message: string, extra: ErrorExtra = {}): never {
  throw new RelayError(code, message, { context: { ...extra } });
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}

/** The wire refusal a RelayError stands for; `null` for local errors (TIMEOUT, STORAGE, …), which are bugs here. */
export function refusalEnvelope(error: unknown, ignored: readonly string[]): ErrorEnvelope | null {
  if (!isRelayError(error) || error.isLocal()) {
    return null;
  }
  const { context } = error;
  const extra: ErrorExtra = { ignored };
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
  return errorEnvelope(error.code as ErrorCode, error.message, extra);
}
