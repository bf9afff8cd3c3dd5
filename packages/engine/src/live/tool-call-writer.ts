import { type Clock, silentLogger, type TimerId } from "@oar/core";
import type { EngineDeps } from "../ports/engine-deps";
import type { ToolCallRecord } from "../ports/tool-call-store";

/**
 * How long a call's line may wait for others to share its insert. A read's own work is one or two
 * statements; a line written per call was a third of it (issue 29). A relay that stops dead loses
 * the lines of this last window: the log is the console's view of what agents did, not state.
 */
export const TOOL_CALL_WINDOW_MS = 250;
/** A window's lines are written at once past this many, so an insert stays small. */
export const TOOL_CALL_BATCH_MAX = 200;

/** The calls of this process waiting to be written to the log, a batch at a time. */
export interface ToolCallWriter {
  /**
   * Queues one call of a conversation of this relay (R-UI-02); it is written within
   * TOOL_CALL_WINDOW_MS, with the calls queued meanwhile, in one statement. Never throws: a write
   * that fails is logged.
   */
  add(deps: EngineDeps, record: ToolCallRecord): void;
  /** Writes what is queued now; resolves once every call queued so far is written (or its failure logged). */
  settled(): Promise<void>;
}

/**
 * The log is written beside the calls, not in their way: a call answers without waiting for its
 * line, and the calls of a window share one insert.
 */
export function createToolCallWriter(options: { readonly clock: Clock }): ToolCallWriter {
  const { clock } = options;
  let queued: { readonly deps: EngineDeps; readonly record: ToolCallRecord }[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: TimerId | null = null;
  const write = async (batch: typeof queued) => {
    const deps = batch[0]?.deps;
    if (deps === undefined) {
      return;
    }
    try {
      await deps.stores.toolCalls.recordToolCalls(batch.map((entry) => entry.record));
    } catch (error) {
      (deps.logger ?? silentLogger).error("Recording relay_tool calls in the activity log failed.", {
        calls: batch.map(({ record }) => `${record.sessionId} ${record.action}`),
        error,
      });
    }
  };
  const flush = (): Promise<void> => {
    if (timer !== null) {
      clock.clearTimeout(timer);
      timer = null;
    }
    if (queued.length > 0) {
      const batch = queued;
      queued = [];
      writing = writing.then(() => write(batch));
    }
    return writing;
  };
  return {
    add(deps, record) {
      queued.push({ deps, record });
      if (queued.length >= TOOL_CALL_BATCH_MAX) {
        void flush();
      } else if (timer === null) {
        timer = clock.setTimeout(() => void flush(), TOOL_CALL_WINDOW_MS);
      }
    },
    settled: flush,
  };
}
