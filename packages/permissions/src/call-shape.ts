import type { Action } from "@oar/schema";

/**
 * The part of a call that the access rules look at. `forOtherSession` matters for `ask` (a
 * question on behalf of another session, R-QCHK-02) and `schedule` (a prompt for another
 * session, §33.3); a `session` equal to the caller's own conversation is not another session.
 */
export interface CallShape {
  readonly action: Action;
  readonly forOtherSession?: boolean;
}
