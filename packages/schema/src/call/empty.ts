/**
 * R-CALL-09: `null`, `""`, `false` and `[]` count as the argument being absent, because some
 * providers send every field. `undefined` is absent too. R-FEW-17 extends this to an object whose
 * fields are all empty (an all-empty quiet_hours counts as none).
 */
export function isEmptyValue(value: unknown): boolean {
  return isEmptyAt(value, 0);
}

// Two levels cover an argument object and its fields; the cap keeps a cyclic or absurdly deep
// value from exhausting the stack (such a value is simply not empty).
const EMPTY_DEPTH = 2;

function isEmptyAt(value: unknown, depth: number): boolean {
  if (value === undefined || value === null || value === "" || value === false) {
    return true;
  }
  if (Array.isArray(value)) {
    return value.length === 0;
  }
  if (isPlainRecord(value)) {
    return depth < EMPTY_DEPTH && Object.values(value).every((field) => isEmptyAt(field, depth + 1));
  }
  return false;
}

/** A JSON-like object: not null, not a list. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The call's arguments without empty ones, in input order. Inside an object argument, empty
 * fields go too (one level), so `{ from: "23:00", to: "06:00", tz: "" }` reads as a missing tz.
 */
export function presentArguments(call: Record<string, unknown>): Array<[string, unknown]> {
  return withoutEmpty(call).map(([key, value]) => [
    key,
    isPlainRecord(value) ? Object.fromEntries(withoutEmpty(value)) : value,
  ]);
}

function withoutEmpty(record: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(record).filter(([, value]) => !isEmptyValue(value));
}
