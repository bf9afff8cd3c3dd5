import { silentLogger } from "@oar/core";
import type { EngineDeps } from "../ports/engine-deps";
import type { ToolCallRecord } from "../ports/tool-call-store";

/** The calls of this process waiting to be written to the log, a batch at a time. */
export interface ToolCallWriter {
  /**
   * Queues one call of a conversation of this relay (R-UI-02); it is written right after, with
   * the calls queued meanwhile, in one statement. Never throws: a write that fails is logged.
   */
  add(deps: EngineDeps, record: ToolCallRecord): void;
  /** Resolves once every call queued so far is written (or its failure logged). */
  settled(): Promise<void>;
}

/**
 * The log is written beside the calls, not in their way: a call answers without waiting for its
 * line, and calls arriving together share one insert (PGlite runs one statement at a time).
 */
export function createToolCallWriter(): ToolCallWriter {
  let queued: { readonly deps: EngineDeps; readonly record: ToolCallRecord }[] = [];
  let writing: Promise<void> = Promise.resolve();
  let scheduled = false;
  const writeQueued = async () => {
    scheduled = false;
    const batch = queued;
    queued = [];
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
  return {
    add(deps, record) {
      queued.push({ deps, record });
      if (!scheduled) {
        scheduled = true;
        writing = writing.then(writeQueued);
      }
    },
    settled: () => writing,
  };
}
