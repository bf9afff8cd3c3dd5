import { z } from "zod";
import { nonBlankString } from "../args/text";
import { storableBody } from "../input/storable-input";
import { LIMITS } from "../limits";

/** POST /v1/owner/groups: a named group, optionally with its first sessions (the first is head). */
export const OwnerCreateGroupBodySchema = storableBody(
  z.strictObject({
    name: nonBlankString(LIMITS.nameMaxChars),
    sessions: z.array(nonBlankString(LIMITS.idMaxChars)).max(LIMITS.sessionsMax).optional(),
  }),
);
export type OwnerCreateGroupBody = z.infer<typeof OwnerCreateGroupBodySchema>;

/** PATCH /v1/owner/groups/:id: renaming is the owner's business (R-LSES-06). */
export const OwnerRenameGroupBodySchema = storableBody(
  z.strictObject({ name: nonBlankString(LIMITS.nameMaxChars) }),
);
export type OwnerRenameGroupBody = z.infer<typeof OwnerRenameGroupBodySchema>;
