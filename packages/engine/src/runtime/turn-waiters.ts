type Wake = () => void;

/**
 * Wakes the waits on a turn when something they may end on happens: the turn ended or it
 * started waiting on a question. Each wait then looks at the turn's rows itself.
 */
export interface TurnWaiters {
  /** Registers a wake-up; the returned function removes it. */
  add(turnId: string, wake: Wake): () => void;
  notify(turnId: string): void;
}

export function createTurnWaiters(): TurnWaiters {
  const byTurn = new Map<string, Set<Wake>>();
  return {
    add(turnId, wake) {
      let wakes = byTurn.get(turnId);
      if (!wakes) {
        wakes = new Set();
        byTurn.set(turnId, wakes);
      }
      wakes.add(wake);
      return () => {
        wakes.delete(wake);
        if (wakes.size === 0 && byTurn.get(turnId) === wakes) {
          byTurn.delete(turnId);
        }
      };
    },
    notify(turnId) {
      for (const wake of [...(byTurn.get(turnId) ?? [])]) {
        wake();
      }
    },
  };
}
