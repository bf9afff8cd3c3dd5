import type { PermissionLevel } from "@oar/schema";
import { sql } from "drizzle-orm";
import { jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { instant, oneOf } from "./columns";
import { subscriptions } from "./subscriptions";
import { PEER_LEVELS } from "./vocabulary";

/** Paired relays. */
export const peers = pgTable(
  "peers",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    url: text("url").notNull(),
    level: text("level").$type<PermissionLevel>().notNull().default("full"),
    // The bearer this relay presents to the peer. It must be sent, so it cannot be kept as a hash;
    // the tokens the peer presents here are hashed in `tokens` (kind `peer`).
    outboundToken: text("outbound_token").notNull(),
    // Sha256 of the invite token this relay issued to the peer, when the pairing came from one.
    inboundTokenHash: text("inbound_token_hash"),
    // What the peer calls itself (GET /v1/peer/info), which its origin names when it calls here.
    remoteName: text("remote_name"),
    version: text("version"),
    // The feature names it listed at its last answer (`GET /v1/peer/info`).
    features: jsonb("features").$type<string[]>(),
    createdAt: instant("created_at").notNull(),
    updatedAt: instant("updated_at").notNull(),
    lastSeenAt: instant("last_seen_at"),
    linkLostAt: instant("link_lost_at"),
    removedAt: instant("removed_at"),
  },
  (t) => [
    uniqueIndex("peers_name_key").on(sql`lower(${t.name})`).where(sql`removed_at is null`),
    oneOf("peers_level_check", t.level, PEER_LEVELS),
  ],
);

/** Events already taken from a peer's replay: a refetch after a crash never delivers one twice. */
export const peerEventCursors = pgTable(
  "peer_event_cursors",
  {
    peerId: text("peer_id")
      .notNull()
      .references(() => peers.id),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    cursor: text("cursor").notNull(),
    // The local copy of the event, once stored.
    eventId: text("event_id"),
    receivedAt: instant("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.peerId, t.subscriptionId, t.cursor] })],
);
