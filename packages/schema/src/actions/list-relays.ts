import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { okResultSchema } from "../envelope/envelopes";
import { PermissionLevelSchema } from "../vocabulary";

/** R-LREL-03: no argument, not even `relay`. */
export const ListRelaysArgsSchema = actionArgs("list_relays", {});
export type ListRelaysArgs = z.infer<typeof ListRelaysArgsSchema>;

/** R-LREL-01, R-LREL-02: this relay comes first with `self: true` and no url. */
export const RelayListEntrySchema = z.object({
  name: z.string(),
  url: z.string().optional(),
  self: z.boolean().optional(),
  online: z.boolean(),
  version: z.string().nullable(),
  permission: PermissionLevelSchema,
  unlocked: z.boolean(),
});
export type RelayListEntry = z.infer<typeof RelayListEntrySchema>;

export const ListRelaysResultSchema = okResultSchema({
  self: z.object({ name: z.string() }),
  relays: z.array(RelayListEntrySchema),
  limits: z.object({
    maxWaitSeconds: z.number().int().min(0),
    maxActiveSessions: z.number().int().min(0),
  }),
});
export type ListRelaysResult = z.infer<typeof ListRelaysResultSchema>;
