type Wake = () => void;

/**
 * Wakes the waits on something of this process when it may have changed: a turn ended or started
 * waiting on a question, the owner answered an approval card. Each wait then reads the rows itself,
 * so a wake-up is only a hint and a missed one costs a poll.
 */
export interface Wakeups {
  /** Registers a wake-up for `key`; the returned function removes it. */
  add(key: string, wake: Wake): () => void;
  notify(key: string): void;
}

export function createWakeups(): Wakeups {
  const byKey = new Map<string, Set<Wake>>();
  return {
    add(key, wake) {
      let wakes = byKey.get(key);
      if (!wakes) {
        wakes = new Set();
        byKey.set(key, wakes);
      }
      wakes.add(wake);
      return () => {
        wakes.delete(wake);
        if (wakes.size === 0 && byKey.get(key) === wakes) {
          byKey.delete(key);
        }
      };
    },
    notify(key) {
      for (const wake of [...(byKey.get(key) ?? [])]) {
        wake();
      }
    },
  };
}
