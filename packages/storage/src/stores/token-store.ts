import type { TokenRecord, TokenStore } from "@oar/engine";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "../database";
import { tokens } from "../tables";
import { mapFirst, toDate, toMs, toMsOrNull } from "./rows";

type TokenRow = typeof tokens.$inferSelect;

function toTokenRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    kind: row.kind,
    hash: row.hash,
    subject: row.subject,
    label: row.label,
    createdAt: toMs(row.createdAt),
    revokedAt: toMsOrNull(row.revokedAt),
  };
}

export function createTokenStore(db: Database): TokenStore {
  return {
    async storeToken(input) {
      const [row] = await db
        .insert(tokens)
        .values({
          id: input.id,
          kind: input.kind,
          hash: input.hash,
          subject: input.subject,
          label: input.label ?? null,
          createdAt: toDate(input.createdAt),
        })
        .returning();
      if (!row) {
        throw new Error(`Inserting token ${input.id} returned no row.`);
      }
      return toTokenRecord(row);
    },

    async findTokenByHash(hash) {
      const rows = await db
        .select()
        .from(tokens)
        .where(and(eq(tokens.hash, hash), isNull(tokens.revokedAt)));
      return mapFirst(rows, toTokenRecord);
    },

    async revokeToken({ id, at }) {
      const rows = await db
        .update(tokens)
        .set({ revokedAt: toDate(at) })
        .where(and(eq(tokens.id, id), isNull(tokens.revokedAt)))
        .returning({ id: tokens.id });
      return rows.length > 0;
    },

    async revokeTokensOf({ kind, subject, at }) {
      const rows = await db
        .update(tokens)
        .set({ revokedAt: toDate(at) })
        .where(and(eq(tokens.kind, kind), eq(tokens.subject, subject), isNull(tokens.revokedAt)))
        .returning({ id: tokens.id });
      return rows.length;
    },

    async bindToken({ id, label }) {
      // Set only while unset; then read what is there, so two relays racing for one invite cannot both win.
      await db
        .update(tokens)
        .set({ label })
        .where(and(eq(tokens.id, id), isNull(tokens.label), isNull(tokens.revokedAt)));
      const rows = await db
        .select({ label: tokens.label })
        .from(tokens)
        .where(and(eq(tokens.id, id), isNull(tokens.revokedAt)));
      return rows[0]?.label === label;
    },

    async listTokens({ kind, subject } = {}) {
      const rows = await db
        .select()
        .from(tokens)
        .where(
          and(
            isNull(tokens.revokedAt),
            kind === undefined ? undefined : eq(tokens.kind, kind),
            subject === undefined ? undefined : eq(tokens.subject, subject),
          ),
        )
        .orderBy(asc(tokens.createdAt), asc(tokens.id));
      return rows.map(toTokenRecord);
    },
  };
}
