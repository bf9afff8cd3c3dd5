import type { ClaudeRun } from "./claude-run";
import { costAdded } from "./conversation-cost";
import type { ClaudeProviderState } from "./provider-state";

export interface CountedRun {
  /** The state after the run: the conversation it ran in and the CLI's running total. */
  readonly state: ClaudeProviderState;
  /** What the run spent, in USD; `undefined` when it reported no cost. */
  readonly costUsd: number | undefined;
}

/** Reads a run's conversation and what it spent against the state before it. */
export function countRun(state: ClaudeProviderState, run: ClaudeRun): CountedRun {
  const claudeSessionId = run.sessionId;
  const sessionChanged = claudeSessionId !== undefined && claudeSessionId !== state.claudeSessionId;
  const moved = sessionChanged ? { ...state, claudeSessionId } : state;
  const totalUsd = run.result?.costUsd;
  if (totalUsd === undefined || claudeSessionId === undefined) {
    return { state: moved, costUsd: totalUsd };
  }
  const reported = { claudeSessionId, totalUsd };
  return {
    state: { ...moved, conversationCost: reported },
    costUsd: costAdded(state.conversationCost, reported),
  };
}
