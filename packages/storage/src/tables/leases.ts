import { bigint, integer, pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "./columns";

/**
 * Worker leases (DESIGN §9). A row stays when its lease is let go, so a fencing token only ever
 * grows; only a retired lease (a name never taken again) is deleted.
 */
export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  owner: text("owner").notNull(),
  fencingToken: bigint("fencing_token", { mode: "number" }).notNull(),
  acquiredAt: instant("acquired_at").notNull(),
  expiresAt: instant("expires_at").notNull(),
  /** The holder's pid space and pid (LeaseProcess), null when it named none. */
  host: text("host"),
  pid: integer("pid"),
  /** The relay process instance: its children carry it (OAR_RELAY_INSTANCE), so a reaper finds them. */
  instance: text("instance"),
  /** How the other processes of the cluster reach this one (DESIGN §9), once it listens. */
  address: text("address"),
});
