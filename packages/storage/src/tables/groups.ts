import { sql } from "drizzle-orm";
import { type AnyPgColumn, boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";
import { sessions } from "./sessions";

export const sessionGroups = pgTable(
  "session_groups",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    createdByAgent: boolean("created_by_agent").notNull(),
    headSessionId: text("head_session_id").references((): AnyPgColumn => sessions.id, {
      onDelete: "set null",
    }),
    createdAt: instant("created_at").notNull(),
    lastActiveAt: instant("last_active_at").notNull(),
    // Dissolved by the owner, or an agent-created group that became empty.
    dissolvedAt: instant("dissolved_at"),
  },
  (t) => [
    index("session_groups_name_idx").on(sql`lower(${t.name})`),
    index("session_groups_last_active_idx").on(t.lastActiveAt),
  ],
);
