import {
  IsoDateTimeSchema,
  ModeSchema,
  OkEnvelopeBaseSchema,
  OwnerMessageSchema,
  OwnerPeerSchema,
  OwnerSessionDetailSchema,
  OwnerSessionViewSchema,
  PeerPreflightSchema,
  QuestionEntrySchema,
  SessionRefSchema,
  SessionStateSchema,
  TurnStatusSchema,
} from "@oar/schema";
import { z } from "zod";

// Responses of the owner and cluster routes that no @oar/schema schema describes: the engine
// returns its own record types there. Each one is written from that type (@oar/engine's
// owner-api.ts, group-store.ts, session-store.ts, question-views.ts) and checked against real
// responses in test/openapi. Objects are loose where the engine's record may grow a field that
// the console ignores; they list only what is always there.

const epochMs = z.number().meta({ description: "Milliseconds since the Unix epoch." });

/** DELETE routes and /kill: the change is done. */
export const OkResponseSchema = z.object({ ok: z.literal(true) });

/** GroupRecord: a group as created or renamed. */
export const GroupSchema = z.looseObject({
  id: z.string(),
  name: z.string().nullable(),
  createdByAgent: z.boolean(),
  headSessionId: z.string().nullable(),
  createdAt: epochMs,
  lastActiveAt: epochMs,
});

/** GET /v1/owner/groups: every group, empty ones included, with its member count. */
export const GroupListSchema = z.object({
  groups: z.array(GroupSchema.extend({ memberCount: z.number().int().min(0) })),
});

/** SessionRecord: the session's row, as POST /v1/owner/sessions/{id}/archive returns it. */
export const SessionRecordSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  provider: z.string(),
  model: z.string(),
  effort: z.string().nullable(),
  mode: ModeSchema,
  cwd: z.string().nullable(),
  state: SessionStateSchema,
  viaAgent: z.string().nullable(),
  mayCreateSessions: z.boolean(),
  createdAt: epochMs,
  lastActivityAt: epochMs,
  archivedAt: epochMs.nullable(),
});

/** GET /v1/owner/sessions. */
export const SessionListSchema = z.object({ sessions: z.array(OwnerSessionViewSchema) });

/** POST /v1/owner/sessions/{id}/compact: the new conversation, naming the one it continues. */
export const CompactedSessionSchema = OwnerSessionDetailSchema.extend({ compactedFrom: z.string() });

/** POST /v1/owner/sessions/{id}/messages: the message, and the turn it queued (none for an external session). */
export const PostedMessageSchema = z.object({
  message: OwnerMessageSchema,
  turn: z.looseObject({ id: z.string(), sessionId: z.string(), status: TurnStatusSchema }).nullable(),
});

const QuestionCardSchema = z.looseObject({
  id: z.string(),
  kind: z.literal("question"),
  sessionId: z.string(),
  text: z.string(),
  options: z.array(z.string()),
  status: z.enum(["pending", "answered", "ended"]),
  createdAt: epochMs,
});

const ApprovalCardSchema = z.looseObject({
  id: z.string(),
  kind: z.literal("approval"),
  reason: z.string().meta({ description: "Why it asks (DESIGN GAP-04): first_create_session, anti_loop…" }),
  sessionId: z.string(),
  action: z.string(),
  targetRelay: z.string(),
  targetSession: z.string().nullable(),
  text: z.string(),
  detail: z.array(z.string()),
  options: z.array(z.string()),
  status: z.enum(["pending", "allowed", "denied", "expired"]),
  createdAt: epochMs,
  answeredAt: epochMs.nullable(),
  expiresAt: epochMs,
});

/** A blocking question card of a turn, or an approval card a relay_tool call waits on. */
export const OwnerCardSchema = z.discriminatedUnion("kind", [QuestionCardSchema, ApprovalCardSchema]);

/** GET /v1/owner/cards. */
export const CardListSchema = z.object({ cards: z.array(OwnerCardSchema) });

/** A non-blocking question in the owner's Inbox: list_questions' entry, who asked, and where it is kept. */
export const InboxItemSchema = QuestionEntrySchema.extend({
  askedBy: SessionRefSchema.extend({ relay: z.string().nullable() }),
  keptOn: z.string().nullable(),
});

/** GET /v1/owner/inbox. */
export const InboxListSchema = z.object({ questions: z.array(InboxItemSchema) });

/** GET /v1/owner/peers. */
export const PeerListSchema = z.object({ peers: z.array(OwnerPeerSchema) });

/** GET /v1/owner/peers/invites: never the token again, only the relay that used it (`null`: unused). */
export const InviteListSchema = z.object({
  invites: z.array(z.object({ id: z.string(), relay: z.string().nullable(), createdAt: IsoDateTimeSchema })),
});

/** POST /v1/peer/tool with `origin.preflight`: the check passed, nothing was done. */
export const PeerPreflightResultSchema = OkEnvelopeBaseSchema.extend({ preflight: PeerPreflightSchema });

/** POST /v1/cluster: what the process that runs the work answered; its shape depends on `op`. */
export const ClusterReplySchema = z.object({ ok: z.literal(true), reply: z.unknown() });

/** A JSON-RPC 2.0 error, as /mcp answers a method it does not serve or a request its transport refuses. */
export const JsonRpcErrorSchema = z.object({
  jsonrpc: z.literal("2.0"),
  error: z.looseObject({ code: z.number().int(), message: z.string() }),
  id: z.union([z.string(), z.number(), z.null()]),
});
