import { bigint, pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/** Worker leases (DESIGN §9). Rows are never deleted, so a fencing token only ever grows. */
export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  owner: text("owner").notNull(),
  fencingToken: bigint("fencing_token", { mode: "number" }).notNull(),
  acquiredAt: instant("acquired_at").notNull(),
  expiresAt: instant("expires_at").notNull(),
});
