/** An in-memory store that can be rolled back: what stands in for a database transaction in tests. */
export interface Snapshotting {
  /** Copies the store's state now; calling the result puts that state back. */
  snapshot(): () => void;
}

type Collection = Map<unknown, unknown> | unknown[];

/**
 * Copies of in-memory collections, and the function that puts them back. The stores keep
 * immutable records (every change replaces one), so shallow copies are enough.
 */
export function snapshotOf(...collections: readonly Collection[]): () => void {
  const copies = collections.map((collection) =>
    collection instanceof Map ? new Map(collection) : [...collection],
  );
  return () => {
    collections.forEach((collection, index) => {
      const copy = copies[index];
      if (collection instanceof Map && copy instanceof Map) {
        collection.clear();
        for (const [key, value] of copy) {
          collection.set(key, value);
        }
      } else if (Array.isArray(collection) && Array.isArray(copy)) {
        collection.splice(0, collection.length, ...copy);
      }
    });
  };
}
