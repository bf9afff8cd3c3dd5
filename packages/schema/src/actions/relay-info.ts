import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { relayArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { LIMITS } from "../limits";
import { GroupInfoSchema } from "../results/common";
import { ModeSchema } from "../vocabulary";

export const RelayInfoArgsSchema = actionArgs("relay_info", { relay: relayArg });
export type RelayInfoArgs = z.infer<typeof RelayInfoArgsSchema>;

/** A provider as New Chat offers it: the same model list send/create_session are checked against. */
export const ProviderInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  defaultModel: z.string().nullable(),
  models: z.array(z.string()),
  efforts: z.array(z.string()),
  /** `repository`: its sessions work on a clone of a repository, started with `repo`/`branch` instead of `cwd` (R-CRE-07). */
  worksOn: z.literal("repository").optional(),
  /** Why sessions cannot run on it now (Claude Code's CLI not found, no API key). */
  notConfigured: z.string().optional(),
});
export type ProviderInfo = z.infer<typeof ProviderInfoSchema>;

/** R-RINFO-01 … R-RINFO-09. */
export const RelayInfoResultSchema = okResultSchema({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  acceptsPrompts: z.boolean(),
  providers: z.array(ProviderInfoSchema),
  folders: z.object({ default: z.string().nullable(), recent: z.array(z.string()) }),
  modes: z.array(ModeSchema),
  /** null when the relay's groups cannot be read; `groupsNote` then says why (R-RINFO-08). */
  groups: z.array(GroupInfoSchema).max(LIMITS.relayInfoGroupsMax).nullable(),
  groupsTotal: z.number().int().min(0).optional(),
  groupsNote: z.string().optional(),
});
export type RelayInfoResult = z.infer<typeof RelayInfoResultSchema>;
