type Listener = () => void;

/**
 * "The outbox may have grown": this process committed events, or the stores heard another
 * process did. Only a hint: every listener reads the outbox itself.
 */
export interface EventHints {
  listen(listener: Listener): () => void;
  notify(): void;
}

export function createEventHints(): EventHints {
  const listeners = new Set<Listener>();
  return {
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify() {
      for (const listener of [...listeners]) {
        listener();
      }
    },
  };
}
