import { z } from "zod";
import { storableBody } from "../input/storable-input";
import { LIMITS } from "../limits";
import { PermissionLevelSchema } from "../vocabulary";
import { hasAnyField } from "./at-least-one";

/**
 * A relay's name as it gives itself one (RELAY_NAME) and as other relays know it: a host-name-like
 * label, so it reads well in a prompt's header line (R-HOP-03) and is never free text.
 */
export const RelayNameSchema = z
  .string()
  .regex(new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,${LIMITS.peerNameMaxChars - 1}}$`), {
    error: `A relay name is 1 to ${LIMITS.peerNameMaxChars} letters, digits, ".", "_" or "-", starting with a letter or digit.`,
  });

/**
 * A paired relay's name: what agents pass as `relay` and users mention (R-RLY-03). "this" is
 * taken: it always means this relay (R-RLY-02).
 */
export const PeerNameSchema = RelayNameSchema.refine((name) => name.toLowerCase() !== "this", {
  error: '"this" always means this relay; pick another name.',
});
export type PeerName = z.infer<typeof PeerNameSchema>;

/**
 * http(s) only. Whether plain http is allowed for that host (loopback and private ranges only,
 * R-HOP-06) is decided where the address is resolved, by the client.
 */
export const PeerUrlSchema = z.url({
  protocol: /^https?$/,
  error: "url must be an http:// or https:// address.",
});

const token = z.string().min(1).max(LIMITS.tokenMaxChars);

/** POST /v1/owner/peers. New pairings start at Full (R-PERM-02). */
export const OwnerCreatePeerBodySchema = storableBody(
  z.strictObject({
    name: PeerNameSchema,
    url: PeerUrlSchema,
    token,
    level: PermissionLevelSchema.default("full"),
  }),
);
export type OwnerCreatePeerBody = z.infer<typeof OwnerCreatePeerBodySchema>;

/** PATCH /v1/owner/peers/:name. */
export const OwnerPatchPeerBodySchema = storableBody(
  z
    .strictObject({
      url: PeerUrlSchema.optional(),
      token: token.optional(),
      level: PermissionLevelSchema.optional(),
    })
    .refine(hasAnyField, { error: "The body names no field to change." }),
);
export type OwnerPatchPeerBody = z.infer<typeof OwnerPatchPeerBodySchema>;

/** A pairing as GET /v1/owner/peers lists it; the token is never returned. */
export const OwnerPeerSchema = z.object({
  name: PeerNameSchema,
  url: z.string(),
  level: PermissionLevelSchema,
  online: z.boolean(),
  version: z.string().nullable(),
  /** Why agents cannot use it now, when they cannot: it does not answer, or it refuses this relay's token. */
  problem: z.string().nullable(),
});
export type OwnerPeer = z.infer<typeof OwnerPeerSchema>;
