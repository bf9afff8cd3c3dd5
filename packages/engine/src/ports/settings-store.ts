import type { JsonValue } from "./json";

/** Owner settings, one JSON value per key; the engine validates values with the shared schemas. */
export interface SettingsStore {
  /** `undefined` when the key was never set (a stored `null` is a value). */
  getSetting(key: string): Promise<JsonValue | undefined>;
  setSetting(key: string, value: JsonValue): Promise<void>;
  listSettings(): Promise<Readonly<Record<string, JsonValue>>>;
  deleteSetting(key: string): Promise<boolean>;
  /**
   * Adds each delta (a finite number) to the field of that name of the object under `key`, in one
   * write of the store (DESIGN §9: relay processes adding at the same instant all count). A field
   * that is missing or not a number counts as 0; other fields stay; a key never set, or one whose
   * value is not an object, starts from `{}`. Sums are IEEE doubles, as JavaScript adds them.
   */
  addToSetting(key: string, deltas: Readonly<Record<string, number>>): Promise<void>;
  /**
   * Replaces the value under `key` with what `update` makes of the value stored now (`undefined`
   * when never set), no other change to the key landing in between, whichever process makes it;
   * returns what was written. `update` runs while the key is held, so it only computes; when it
   * throws, nothing is written and the call rejects (a RelayError as it was thrown).
   */
  updateSetting(key: string, update: (stored: JsonValue | undefined) => JsonValue): Promise<JsonValue>;
}
