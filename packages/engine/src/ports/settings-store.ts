import type { JsonValue } from "./json";

/** Owner settings, one JSON value per key; the engine validates values with the shared schemas. */
export interface SettingsStore {
  /** `undefined` when the key was never set (a stored `null` is a value). */
  getSetting(key: string): Promise<JsonValue | undefined>;
  setSetting(key: string, value: JsonValue): Promise<void>;
  listSettings(): Promise<Readonly<Record<string, JsonValue>>>;
  deleteSetting(key: string): Promise<boolean>;
}
