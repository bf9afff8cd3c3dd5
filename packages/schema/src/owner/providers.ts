import { z } from "zod";
import { ProviderInfoSchema } from "../actions/relay-info";

/** GET /v1/owner/providers: what "start a conversation" offers, as relay_info lists it (R-RINFO-03). */
export const OwnerProvidersSchema = z.looseObject({ providers: z.array(ProviderInfoSchema) });
export type OwnerProviders = z.infer<typeof OwnerProvidersSchema>;
