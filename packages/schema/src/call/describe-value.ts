const QUOTE_MAX = 40;

/**
 * A short, safe rendering of any input value for an error message ("got …"). It never throws,
 * whatever the value (BigInt, symbols, proxies, cycles), and never echoes long user text.
 */
export function describeValue(value: unknown): string {
  try {
    if (value === undefined) {
      return "nothing";
    }
    if (value === null) {
      return "null";
    }
    if (typeof value === "string") {
      const quoted = JSON.stringify(value.length > QUOTE_MAX ? `${value.slice(0, QUOTE_MAX)}…` : value);
      return quoted;
    }
    if (typeof value === "number" || typeof value === "boolean") {
      return String(value);
    }
    if (typeof value === "bigint") {
      return `${String(value)}n`;
    }
    if (Array.isArray(value)) {
      return value.length === 1 ? "a list of 1" : `a list of ${value.length}`;
    }
    if (typeof value === "object") {
      return "an object";
    }
    return `a ${typeof value}`;
  } catch {
    return "an unreadable value";
  }
}

/** The JSON kind of a value, for "must be a number (got a string)". */
export function describeKind(value: unknown): string {
  if (value === null) {
    return "null";
  }
  if (Array.isArray(value)) {
    return "a list";
  }
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return Number.isFinite(value) ? "a number" : String(value);
    case "boolean":
      return String(value);
    case "object":
      return "an object";
    case "undefined":
      return "nothing";
    default:
      return `a ${typeof value}`;
  }
}
