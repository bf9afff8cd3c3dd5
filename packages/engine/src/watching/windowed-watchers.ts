/** How many sessions the guess remembers; past it, it starts again (a guess costs a read when wrong). */
const SESSIONS_REMEMBERED = 10_000;

/**
 * For each watched session, the watchers its last routed event reached: the routing of its next
 * event reads their open grouping windows in the same flight as the subscriptions, before it
 * knows who receives it. Only a guess — whom it misses are read after.
 */
export class WindowedWatchers {
  private readonly bySession = new Map<string, readonly string[]>();

  of(sessionIds: readonly string[]): string[] {
    return [...new Set(sessionIds.flatMap((id) => this.bySession.get(id) ?? []))];
  }

  knows(sessionId: string): boolean {
    return this.bySession.has(sessionId);
  }

  learn(sessionId: string, watchers: readonly string[]): void {
    if (this.bySession.size >= SESSIONS_REMEMBERED && !this.bySession.has(sessionId)) {
      this.bySession.clear();
    }
    this.bySession.set(sessionId, watchers);
  }
}
