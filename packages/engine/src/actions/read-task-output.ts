import { toIso } from "@oar/core";
import type { CallOf } from "@oar/schema";
import { taskType } from "../outbox/outbox";
import type { TaskRecord } from "../ports/task-store";
import type { OutputRead } from "../runtime/cluster";
import { type OutputTail, outputTail } from "../tasks/output-tail";
import { TASK_OUTPUT_KEPT_MS } from "../tasks/task-host";
import { taskStall, taskViewContext } from "../tasks/task-views";
import type { ActionContext, ActionSuccess } from "./context";
import { refuse } from "./refusal";
import { requireSession } from "./sessions";
import { plural } from "./summary";

// A line is rarely longer than this: reading `lines` of them from the end usually finds them all.
const BYTES_PER_LINE_GUESS = 512;
const FIRST_READ_MIN_BYTES = 64 * 1024;
// Past this much, lines this long are not worth more reading: the tail says it is truncated.
const MOST_READ_BYTES = 8 * 1024 * 1024;

export const OUTPUT_GONE_NOTE =
  "The task's output is no longer there: it was removed, or the task wrote none to keep.";
export const SUBAGENT_NOTE = "This task is a background agent: it has no output of its own to read.";

type ReadEnd = (maxBytes: number) => Promise<OutputRead>;

/**
 * The end of the output file, read from the end however large the file (R-RTO-03): a first read
 * sized for the lines asked for, larger reads only while lines are missing. The file may be on
 * another host, read there by a relay process of that host.
 */
async function tailOfFile(
  readEnd: ReadEnd,
  lines: number,
): Promise<OutputTail | Exclude<OutputRead, { kind: "read" }> | null> {
  for (let bytes = Math.max(FIRST_READ_MIN_BYTES, lines * BYTES_PER_LINE_GUESS); ; bytes *= 4) {
    const read = await readEnd(Math.min(bytes, MOST_READ_BYTES));
    if (read.kind !== "read") {
      return read;
    }
    const end = read.end;
    if (end === null) {
      return null;
    }
    const tail = outputTail(end.text, lines, end.complete);
    if (end.complete || tail.tail.length >= lines || bytes >= MOST_READ_BYTES) {
      return tail;
    }
  }
}

/** R-RTO-05: why there is nothing to read from a file on another host. */
function elsewhereNote(read: Exclude<OutputRead, { kind: "read" }>): string {
  return read.kind === "lost"
    ? `The task's output is on host ${read.host}, where no relay process of this relay runs now: it is lost on host ${read.host}.`
    : `The task's output is on host ${read.host}, whose relay process did not answer just now; repeat the call in a few seconds.`;
}

function requireReadable(
  ctx: ActionContext,
  task: TaskRecord | null,
  sessionId: string,
  taskId: string,
): TaskRecord {
  if (task === null || task.sessionId !== sessionId) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `Session ${sessionId} has no task ${taskId} on relay "${ctx.deps.relay.name}".`,
    );
  }
  if (task.endedAt !== null && task.endedAt < ctx.deps.clock.now() - TASK_OUTPUT_KEPT_MS) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `Task ${taskId} ended more than an hour ago (${toIso(task.endedAt)}); its output is kept for one hour only.`,
    );
  }
  return task;
}

/** "running, last output 14 min ago, 412 passed, 2 failed" */
function statusDetails(
  task: TaskRecord,
  result: { stall?: { minutes: number }; counts?: OutputTail["counts"] },
) {
  const parts: string[] = [
    task.exitCode === null ? task.status : `${task.status} (exit code ${task.exitCode})`,
  ];
  if (result.stall) {
    parts.push(`last output ${result.stall.minutes} min ago`);
  }
  if (result.counts) {
    parts.push(`${result.counts.passed} passed`, `${result.counts.failed} failed`);
    if (result.counts.skipped > 0) {
      parts.push(`${result.counts.skipped} skipped`);
    }
  }
  return parts.join(", ");
}

/**
 * §13: the last `lines` of a task's output as plain text (colours stripped, repeats folded,
 * credentials masked), `truncated`, `stall` while it runs, `counts` for a test run, and a `note`
 * when there is nothing to read.
 */
export async function readTaskOutput(
  ctx: ActionContext,
  call: CallOf<"read_task_output">,
): Promise<ActionSuccess> {
  const session = await requireSession(ctx, call.session, { allowArchived: true });
  const task = requireReadable(
    ctx,
    await ctx.deps.stores.tasks.getTask(call.task_id),
    session.id,
    call.task_id,
  );
  const view = await taskViewContext(ctx.deps, ctx.runtime);
  const notes: string[] = [];
  let read: OutputTail | null = null;
  if (task.kind === "subagent") {
    notes.push(SUBAGENT_NOTE);
  } else {
    const found =
      task.outputPath === null
        ? null
        : await tailOfFile((maxBytes) => ctx.runtime.readTaskOutput(task, maxBytes), call.lines);
    if (found === null) {
      notes.push(OUTPUT_GONE_NOTE);
    } else if ("kind" in found) {
      notes.push(elsewhereNote(found));
    } else {
      read = found;
    }
  }
  const stall = task.status === "running" && task.kind !== "subagent" ? taskStall(task, view) : undefined;
  const counts = read?.counts ?? task.counts ?? undefined;
  const tail = read?.tail ?? [];
  return {
    session: session.id,
    task: task.id,
    details: `${plural(tail.length, "line")}, ${statusDetails(task, { ...(stall ? { stall } : {}), ...(counts ? { counts } : {}) })}`,
    notes,
    fields: {
      session: session.id,
      task: {
        id: task.id,
        description: task.description,
        type: taskType(task.kind),
        startedAt: toIso(task.startedAt),
        status: task.status,
        exitCode: task.exitCode,
      },
      ...(stall ? { stall } : {}),
      ...(counts ? { counts } : {}),
      tail,
      ...(read?.truncated ? { truncated: true } : {}),
    },
  };
}
