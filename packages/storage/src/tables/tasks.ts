import type { JsonObject } from "@oar/engine";
import type { TaskStatus } from "@oar/schema";
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { instant, oneOf } from "./columns";
import { sessions } from "./sessions";
import { TASK_KINDS, TASK_STATUSES, type TaskKind } from "./vocabulary";

/** Background tasks; their output lives in files under the data dir (`outputPath`), kept 1 h after the end. */
export const tasks = pgTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    turnId: text("turn_id"),
    kind: text("kind").$type<TaskKind>().notNull(),
    name: text("name"),
    description: text("description").notNull(),
    command: text("command"),
    status: text("status").$type<TaskStatus>().notNull(),
    exitCode: integer("exit_code"),
    outputPath: text("output_path"),
    // Test-run counts parsed from the output: runner, passed, failed, skipped, final.
    counts: jsonb("counts").$type<JsonObject>(),
    // The lease of the relay process running it (DESIGN §9): once that lease is gone, so is the task.
    runner: text("runner"),
    // The process group of a shell task: a restarted relay ends what its predecessor left running.
    pid: integer("pid"),
    // The pid space the group and the output file are on: where the output is read and the group ended.
    host: text("host"),
    startedAt: instant("started_at").notNull(),
    lastOutputAt: instant("last_output_at"),
    endedAt: instant("ended_at"),
  },
  (t) => [
    index("tasks_session_idx").on(t.sessionId, t.startedAt),
    index("tasks_status_idx").on(t.status),
    index("tasks_output_idx")
      .on(t.endedAt)
      .where(sql`${t.outputPath} is not null and ${t.endedAt} is not null`),
    oneOf("tasks_kind_check", t.kind, TASK_KINDS),
    oneOf("tasks_status_check", t.status, TASK_STATUSES),
  ],
);
