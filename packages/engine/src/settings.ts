import { RelayError } from "@oar/core";
import { type OwnerSettings, type OwnerSettingsPatch, OwnerSettingsSchema } from "@oar/schema";
import type { JsonValue } from "./ports/json";
import type { SettingsStore } from "./ports/settings-store";

// The owner's settings live under one key: they are read together on nearly every call and
// changed rarely, and one row keeps a PATCH atomic.
const SETTINGS_KEY = "owner.settings";

/** The owner's settings with defaults filled in (DESIGN §4, GAP-02: agent sessions start enabled). */
export async function readSettings(store: SettingsStore): Promise<OwnerSettings> {
  const stored = await store.getSetting(SETTINGS_KEY);
  const parsed = OwnerSettingsSchema.safeParse(stored ?? {});
  if (!parsed.success) {
    throw new RelayError("REMOTE_RELAY_INTERNAL", "The stored relay settings do not validate.", {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** Applies a validated patch (OwnerSettingsPatchSchema) and returns the settings now in force. */
export async function patchSettings(store: SettingsStore, patch: OwnerSettingsPatch): Promise<OwnerSettings> {
  const current = await readSettings(store);
  const next = OwnerSettingsSchema.parse({
    ...current,
    ...patch,
    agentSessions: { ...current.agentSessions, ...patch.agentSessions },
    providers: { ...current.providers, ...patch.providers },
  });
  await store.setSetting(SETTINGS_KEY, next as unknown as JsonValue);
  return next;
}
