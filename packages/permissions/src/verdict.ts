import type { ErrorCode } from "@oar/schema";

/** A call may go ahead. */
export interface Allow {
  readonly kind: "allow";
}

/** A call is refused with a wire code and a message the agent can act on (R-ERR-01). */
export interface Refuse {
  readonly kind: "refuse";
  readonly code: ErrorCode;
  readonly message: string;
}

/** What each single rule of this package decides. */
export type Verdict = Allow | Refuse;

export const ALLOW: Allow = { kind: "allow" };

export function refuse(code: ErrorCode, message: string): Refuse {
  return { kind: "refuse", code, message };
}
