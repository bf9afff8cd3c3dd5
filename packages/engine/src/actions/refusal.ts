import { isRelayError, RelayError, wireExtraOf } from "@oar/core";
import type { Verdict } from "@oar/permissions";
import { type ErrorCode, type ErrorEnvelope, type ErrorExtra, errorEnvelope } from "@oar/schema";

/**
 * Ends an action with a refusal the agent can act on. Actions throw it (a wire code and the extra
 * fields of R-ERR-03 in `context`); `execute` turns it into the error envelope, so no action
 * builds envelopes itself.
 */
export function refuse(code: ErrorCode, message: string, extra: ErrorExtra = {}): never {
  throw new RelayError(code, message, { context: { ...extra } });
}

/** Applies one of the permission engine's verdicts: a refusal ends the action. */
export function enforce(verdict: Verdict): void {
  if (verdict.kind === "refuse") {
    refuse(verdict.code, verdict.message);
  }
}

/** The wire refusal a RelayError stands for; `null` for local errors (TIMEOUT, STORAGE, …), which are bugs here. */
export function refusalEnvelope(error: unknown, ignored: readonly string[]): ErrorEnvelope | null {
  if (!isRelayError(error) || error.isLocal()) {
    return null;
  }
  return errorEnvelope(error.code as ErrorCode, error.message, { ...wireExtraOf(error), ignored });
}
