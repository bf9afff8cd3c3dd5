import type { JsonValue } from "@oar/engine";
import { jsonb, pgTable, text } from "drizzle-orm/pg-core";

/** Owner settings; a row with SQL NULL holds the JSON value `null`. */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<JsonValue>(),
});
