/**
 * R-CALL-09: `null`, `""`, `false` and `[]` count as the argument being absent, because some
 * providers send every field; `undefined` is absent too. Nothing else is empty: `{}` and
 * `{ "a": null }` are values, so an unknown argument holding one is listed in `ignored` (or refused
 * by create_session and update_session, R-CALL-07).
 */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === "" ||
    value === false ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** A JSON-like object: not null, not a list. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The call's arguments without empty ones, in input order. */
export function presentArguments(call: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(call).filter(([, value]) => !isEmptyValue(value));
}

/**
 * Arguments whose value is an object of parts: R-FEW-17 makes an all-empty `quiet_hours` count as
 * none, and R-CALL-09 applies to its parts, so `{ from: "23:00", to: "06:00", tz: "" }` reads as a
 * missing tz. This holds for these arguments only, and only where the action takes them.
 */
const ALL_EMPTY_MEANS_NONE: ReadonlySet<string> = new Set(["quiet_hours"]);

/** `present` with the R-FEW-17 arguments of this action read part by part (see ALL_EMPTY_MEANS_NONE). */
export function withEmptyPartsDropped(
  present: ReadonlyArray<[string, unknown]>,
  takes: ReadonlySet<string>,
): Array<[string, unknown]> {
  return present.flatMap(([key, value]): Array<[string, unknown]> => {
    if (!(ALL_EMPTY_MEANS_NONE.has(key) && takes.has(key) && isPlainRecord(value))) {
      return [[key, value]];
    }
    const parts = presentArguments(value);
    return parts.length === 0 ? [] : [[key, Object.fromEntries(parts)]];
  });
}
