/** A value that survives a JSON round trip unchanged: what the stores keep in jsonb columns. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

export interface JsonObject {
  readonly [key: string]: JsonValue;
}
