/**
 * The running total Claude Code last reported for one of its conversations. Its
 * `total_cost_usd` is that conversation's total so far, resumed runs included (2.1.332 keeps it in
 * the transcript: three identical resumed runs report one, two and three runs' cost), so only the
 * difference from the total before is what a run spent.
 */
export interface ConversationCost {
  readonly claudeSessionId: string;
  readonly totalUsd: number;
}

/** What a run that reported `reported` added to the spend, given the total kept before it. */
export function costAdded(kept: ConversationCost | null, reported: ConversationCost): number {
  // Another conversation (the kept one was lost and a new one began), or a count the CLI started
  // over (it no longer had its total): all of the reported total is new.
  const startedOver =
    kept === null || kept.claudeSessionId !== reported.claudeSessionId || reported.totalUsd < kept.totalUsd;
  return startedOver ? reported.totalUsd : reported.totalUsd - kept.totalUsd;
}
