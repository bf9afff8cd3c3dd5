import { z } from "zod";
import { RelayEventSchema } from "./events";
import { LIMITS } from "./limits";
import { IsoDateTimeSchema } from "./time/iso-date-time";
import { QuestionStatusSchema } from "./vocabulary";

// The peer surface (/v1/peer, DESIGN §4): what one relay sends another.

/** GET /v1/peer/info. `features` lets the caller gate calls on what the peer supports. */
export const PeerInfoSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  features: z.array(z.string()),
});
export type PeerInfo = z.infer<typeof PeerInfoSchema>;

/**
 * Who is calling through a peer: the hop count and whether the user unlocked the target
 * personally feed the hop rule (R-HOP-01); relay, title and model fill the header line (R-HOP-03).
 */
export const PeerOriginSchema = z.object({
  relay: z.string().min(1),
  session: z.string().min(1),
  title: z.string(),
  model: z.string(),
  hops: z.number().int().min(0).max(LIMITS.hopsMax),
  userUnlocked: z.boolean(),
});
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
});
export type PeerQuestionStatus = z.infer<typeof PeerQuestionStatusSchema>;
