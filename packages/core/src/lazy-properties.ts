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
