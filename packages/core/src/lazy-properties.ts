/**
 * An object whose properties are made on first read, once each. They are enumerable, so a spread
 * of the object (a wrapper replacing one port) still sees them all, making them then; once made,
 * or assigned, each is a plain property.
 */
export function lazyProperties<T extends object>(makers: { readonly [K in keyof T]: () => T[K] }): T {
  const target = {} as T;
  const settle = (key: keyof T & string, value: unknown) => {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  };
  for (const key of Object.keys(makers) as (keyof T & string)[]) {
    Object.defineProperty(target, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = makers[key]();
        settle(key, value);
        return value;
      },
      set(value: unknown) {
        settle(key, value);
      },
    });
  }
  return target;
}

/**
 * `base` with `overrides` in front: what `{ ...base, ...overrides }` means for an object whose
 * members may live on its prototype (the stores' methods do), which a spread would drop.
 */
export function overriding<T extends object>(base: T, overrides: Partial<T>): T {
  const derived = Object.create(base) as T;
  // Defined, not assigned: an assignment would fail on a member the base holds read-only.
  for (const key of Reflect.ownKeys(overrides)) {
    const value = (overrides as Record<PropertyKey, unknown>)[key];
    Object.defineProperty(derived, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return derived;
}

/**
 * Gives the instances of a class the properties `keys`, each made on first read by `make` and then
 * a plain own property of the instance: what `lazyProperties` does, with the getters shared on
 * the prototype, for an object made often (one per transaction) that is never spread.
 */
export function lazyPrototypeProperties<C extends object, K extends string>(
  prototype: C,
  keys: readonly K[],
  make: (instance: C, key: K) => unknown,
): void {
  for (const key of keys) {
    const settle = (target: object, value: unknown) =>
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    Object.defineProperty(prototype, key, {
      configurable: true,
      get(this: C) {
        const value = make(this, key);
        settle(this, value);
        return value;
      },
      set(this: C, value: unknown) {
        settle(this, value);
      },
    });
  }
}
