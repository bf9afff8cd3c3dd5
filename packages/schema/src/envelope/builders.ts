import type { ErrorCode } from "../errors/error-codes";
import { LIMITS } from "../limits";
import type { GroupInfo } from "../results/common";
import type { ErrorEnvelope, OkEnvelopeBase } from "./envelopes";

export interface OkHead {
  relay: string;
  summary: string;
  ignored?: readonly string[];
  note?: string;
}

/** Extra fields of a refusal (R-ERR-02, R-ERR-03). */
export interface ErrorExtra {
  remoteCode?: string;
  groups?: readonly GroupInfo[];
  groupsTotal?: number;
  suggestions?: readonly string[];
  models?: readonly string[];
  ignored?: readonly string[];
  requestId?: string;
}

function capIgnored(ignored: readonly string[] | undefined): { ignored?: string[] } {
  return ignored && ignored.length > 0 ? { ignored: ignored.slice(0, LIMITS.ignoredMax) } : {};
}

/**
 * A success result: `ok`, `relay`, `summary`, the action's fields, then `ignored` (capped at 20,
 * left out when empty) and `note`.
 */
export function okEnvelope<Fields extends object = Record<never, never>>(
  head: OkHead,
  fields?: Fields,
): OkEnvelopeBase & Fields {
  return {
    ok: true,
    relay: head.relay,
    summary: head.summary,
    ...(fields ?? ({} as Fields)),
    ...capIgnored(head.ignored),
    ...(head.note ? { note: head.note } : {}),
  };
}

/** A refusal. Lists longer than the envelope allows are cut, and `groupsTotal` keeps the count. */
export function errorEnvelope(code: ErrorCode, error: string, extra: ErrorExtra = {}): ErrorEnvelope {
  const { ignored, groups, suggestions, models, ...rest } = extra;
  const envelope: ErrorEnvelope = { ok: false, code, error, ...rest, ...capIgnored(ignored) };
  if (groups) {
    envelope.groups = groups.slice(0, LIMITS.errorGroupsMax);
    if (groups.length > LIMITS.errorGroupsMax && envelope.groupsTotal === undefined) {
      envelope.groupsTotal = groups.length;
    }
  }
  if (suggestions) {
    envelope.suggestions = [...suggestions];
  }
  if (models) {
    envelope.models = [...models];
  }
  return envelope;
}
