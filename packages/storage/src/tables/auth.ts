import type { TokenKind } from "@oar/schema";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { instant, oneOf } from "./columns";
import { TOKEN_KINDS } from "./vocabulary";

/** Owner and agent tokens and invites, as sha256 hashes only. */
export const tokens = pgTable(
  "tokens",
  {
    id: text("id").primaryKey(),
    kind: text("kind").$type<TokenKind>().notNull(),
    hash: text("hash").notNull().unique("tokens_hash_key"),
    subject: text("subject").notNull(),
    label: text("label"),
    createdAt: instant("created_at").notNull(),
    revokedAt: instant("revoked_at"),
  },
  (t) => [index("tokens_subject_idx").on(t.kind, t.subject), oneOf("tokens_kind_check", t.kind, TOKEN_KINDS)],
);
