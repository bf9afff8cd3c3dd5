import { z } from "zod";
import { RelayEventSchema } from "./events";
import { storableBody } from "./input/storable-input";
import { LIMITS } from "./limits";
import { RelayNameSchema } from "./owner/peers";
import { IsoDateTimeSchema } from "./time/iso-date-time";
import { ModeSchema, QuestionStatusSchema } from "./vocabulary";

// The peer surface (/v1/peer, DESIGN §4): what one relay sends another.

/** GET /v1/peer/info. `features` lets the caller gate calls on what the peer supports (PEER_FEATURES). */
export const PeerInfoSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  features: z.array(z.string()),
});
export type PeerInfo = z.infer<typeof PeerInfoSchema>;

/**
 * Who is calling through a peer: the hop count and whether the user unlocked the target
 * personally feed the hop rule (R-HOP-01); relay, title and model fill the header line (R-HOP-03).
 * A paired relay's fields get the bounds an agent's own fields get: they are stored and put in
 * prompts on this relay.
 */
export const PeerOriginSchema = storableBody(
  z.object({
    /** The calling relay's own name, as its RELAY_NAME allows it. */
    relay: RelayNameSchema,
    session: z.string().min(1).max(LIMITS.idMaxChars),
    title: z.string().max(LIMITS.titleMaxChars),
    model: z.string().max(LIMITS.nameMaxChars),
    hops: z.number().int().min(0).max(LIMITS.hopsMax),
    userUnlocked: z.boolean(),
    /**
     * The calling conversation's own settings, for whatever a create_session omits (R-CRE-03): the
     * target uses each one it offers and its own default for the rest.
     */
    defaults: z
      .object({
        provider: z.string().min(1).max(LIMITS.nameMaxChars).optional(),
        model: z.string().min(1).max(LIMITS.nameMaxChars).optional(),
        effort: z.string().min(1).max(LIMITS.effortMaxChars).optional(),
        mode: ModeSchema.optional(),
      })
      .optional(),
    /**
     * Cards the caller's owner allowed that the target checks itself: update_session of a session
     * the calling conversation did not start (R-UPD-10/12, once per conversation and relay).
     */
    approvals: z.object({ updateOtherSessions: z.boolean().optional() }).optional(),
    /**
     * Check the whole call and change nothing: the target answers with `preflight` (what the
     * caller's approval cards must show) or with the refusal the call would get (R-UPD-13,
     * R-MDL-01, R-CGRP-05: model, group and folder are checked on the target before any card).
     */
    preflight: z.boolean().optional(),
  }),
);
export type PeerOrigin = z.infer<typeof PeerOriginSchema>;

/**
 * POST /v1/peer/tool. `call` is the agent's call object as received: the target runs parseCall
 * on it itself, so its own version decides what is refused or ignored.
 */
export const PeerToolRequestSchema = z.object({
  call: z.record(z.string(), z.unknown()),
  origin: PeerOriginSchema,
});
export type PeerToolRequest = z.infer<typeof PeerToolRequestSchema>;

const CardGroupSchema = z.object({ id: z.string().min(1), name: z.string().nullable() });

/** What update_session would change, as its approval card names it (R-UPD-10). */
export const PeerUpdateChangesSchema = z.object({
  model: z.string().optional(),
  effort: z.string().optional(),
  mode: ModeSchema.optional(),
  title: z.string().optional(),
  /** `"none"` leaves the group; `id: null` is a group the call would create (R-UPD-15). */
  group: z
    .union([z.literal("none"), z.object({ id: z.string().min(1).nullable(), name: z.string().nullable() })])
    .optional(),
  cwd: z.string().optional(),
  auto_compact_window: z.union([z.literal("auto"), z.number()]).optional(),
  thinking_enabled: z.boolean().optional(),
  thinking_display: z.string().optional(),
});
export type PeerUpdateChanges = z.infer<typeof PeerUpdateChangesSchema>;

/**
 * The `preflight` field of a successful check (origin.preflight): the session the call acts on as
 * the target knows it, and the action-specific lines of the caller's cards (R-UI-08).
 */
export const PeerPreflightSchema = z.object({
  target: z
    .object({
      id: z.string().min(1),
      title: z.string().optional(),
      /** The target recorded the calling conversation as the one that started it (R-UPD-09). */
      startedByCaller: z.boolean(),
      busy: z.boolean(),
    })
    .optional(),
  details: z
    .object({
      billingSwitch: z.enum(["api_key", "subscription"]).optional(),
      group: CardGroupSchema.optional(),
      changes: PeerUpdateChangesSchema.optional(),
    })
    .optional(),
});
export type PeerPreflight = z.infer<typeof PeerPreflightSchema>;

/** Query of GET /v1/peer/subscriptions/:id/events (replay after a link loss, R-PAIR-04). */
export const PeerEventsQuerySchema = z.object({
  after: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.peerEventsPageMax).default(LIMITS.peerEventsPageDefault),
});
export type PeerEventsQuery = z.infer<typeof PeerEventsQuerySchema>;

/**
 * A page of a subscription's events. `cursor` goes in `after` for the next page (null: no event
 * yet); `truncated` says events before this page were dropped (over 500 kept or older than
 * 7 days, R-PAIR-04), so the replay has a gap.
 */
export const PeerEventsPageSchema = z.object({
  events: z.array(RelayEventSchema),
  cursor: z.string().nullable(),
  truncated: z.boolean(),
});
export type PeerEventsPage = z.infer<typeof PeerEventsPageSchema>;

/** GET /v1/peer/questions/:id: polled while a question kept there is open (R-QCHK-05). */
export const PeerQuestionStatusSchema = z.object({
  question_id: z.string().min(1),
  status: QuestionStatusSchema,
  answer: z.string().nullable(),
  choice: z.string().nullable(),
  dismissed: z.boolean(),
  /** The relay whose Inbox the user answered in (R-QANS-01). */
  via: z.string().nullable(),
  answeredAt: IsoDateTimeSchema.nullable(),
  /** The session it is about, as the relay keeping it names it (for the asker's event line). */
  session: z.object({ id: z.string(), title: z.string() }).optional(),
});
export type PeerQuestionStatus = z.infer<typeof PeerQuestionStatusSchema>;
