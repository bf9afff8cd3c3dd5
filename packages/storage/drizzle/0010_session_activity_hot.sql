-- A message moves its session's last_activity_at: with no index on it, and room left on each page,
-- that update stays on the page (HOT) instead of adding an entry to each of the table's indexes.
DROP INDEX "sessions_last_activity_idx";--> statement-breakpoint
ALTER TABLE "sessions" SET (fillfactor = 80);
