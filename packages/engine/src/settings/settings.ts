import { RelayError } from "@oar/core";
import { type OwnerSettings, type OwnerSettingsPatch, OwnerSettingsSchema } from "@oar/schema";
import type { EngineDeps } from "../ports/engine-deps";
import type { JsonValue } from "../ports/json";
import type { SettingsStore } from "../ports/settings-store";
import { allowedRoots } from "./allowed-folders";

// The owner's settings live under one key: they are read together on nearly every call and
// changed rarely, and one row keeps a PATCH atomic.
const SETTINGS_KEY = "owner.settings";

// Every call reads the settings, and the engine's cache hands back the same stored value for a
// second: that value's settings are parsed once and shared, not parsed and kept by every call
// (thousands of held waits each held their own copy).
const parsedSettings = new WeakMap<object, OwnerSettings>();

/** The owner's settings with defaults filled in (DESIGN §4, GAP-02: agent sessions start enabled). */
export async function readSettings(store: SettingsStore): Promise<OwnerSettings> {
  const stored = await store.getSetting(SETTINGS_KEY);
  const key = typeof stored === "object" && stored !== null ? stored : undefined;
  const known = key === undefined ? undefined : parsedSettings.get(key);
  if (known !== undefined) {
    return known;
  }
  const parsed = parseStored(stored);
  if (key !== undefined) {
    parsedSettings.set(key, parsed);
  }
  return parsed;
}

function parseStored(stored: JsonValue | undefined): OwnerSettings {
  const parsed = OwnerSettingsSchema.safeParse(stored ?? {});
  if (!parsed.success) {
    throw new RelayError("REMOTE_RELAY_INTERNAL", "The stored relay settings do not validate.", {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

type ProviderEntries = OwnerSettings["providers"];

/** Shown instead of a provider's API key, which is never shown back (DESIGN §4). */
const KEY_SHOWN_AS = "apiKeySet";

/**
 * A patch's entry replaces the provider's, `null` removes it; an entry without `apiKey` keeps the
 * key already stored, so the owner changes a cap without typing the key again.
 */
function mergeProviders(current: ProviderEntries, patch: OwnerSettingsPatch["providers"]) {
  const merged: Record<string, Record<string, unknown>> = { ...current };
  const changed: Record<string, Record<string, unknown>> = {};
  for (const [id, entry] of Object.entries(patch ?? {})) {
    if (entry === null) {
      delete merged[id];
      continue;
    }
    const { [KEY_SHOWN_AS]: _shown, ...given } = entry;
    const kept = current[id]?.apiKey;
    merged[id] = changed[id] =
      given.apiKey === undefined && kept !== undefined ? { ...given, apiKey: kept } : given;
  }
  return { merged, changed };
}

/**
 * Applies a validated patch (OwnerSettingsPatchSchema) and returns the settings now in force;
 * `checkProviders` refuses provider entries no provider takes as they are. The patch is merged
 * into the row as stored now, held against other processes' patches (DESIGN §9), never into a
 * cached copy; a refused patch writes nothing.
 */
export async function patchSettings(
  store: SettingsStore,
  patch: OwnerSettingsPatch,
  checkProviders: (entries: Readonly<Record<string, unknown>>) => void = () => {},
): Promise<OwnerSettings> {
  const written = await store.updateSetting(
    SETTINGS_KEY,
    (stored) => merged(parseStored(stored), patch, checkProviders) as unknown as JsonValue,
  );
  return parseStored(written);
}

// The merge runs while the store holds the row, and its refusals are RelayErrors: the store
// passes those on as they are (any other failure it reports as its own).
function merged(
  current: OwnerSettings,
  patch: OwnerSettingsPatch,
  checkProviders: (entries: Readonly<Record<string, unknown>>) => void,
): OwnerSettings {
  const providers = mergeProviders(current.providers, patch.providers);
  checkProviders(providers.changed);
  const parsed = OwnerSettingsSchema.safeParse({
    ...current,
    ...patch,
    agentSessions: { ...current.agentSessions, ...patch.agentSessions },
    providers: providers.merged,
  });
  if (!parsed.success) {
    throw new RelayError("REMOTE_RELAY_INTERNAL", "The patched relay settings do not validate.", {
      cause: parsed.error,
    });
  }
  const { allowedRoots: _shownNotStored, ...next } = parsed.data;
  return next;
}

/**
 * The settings as the owner sees them: what is stored, API keys only as `apiKeySet`, and the
 * folders sessions may use. Those come from RELAY_ALLOWED_ROOTS at start (DESIGN §4), so they
 * are shown but never stored.
 */
function withAllowedRoots(deps: EngineDeps, settings: OwnerSettings): OwnerSettings {
  const roots = allowedRoots(deps);
  const providers = Object.fromEntries(
    Object.entries(settings.providers).map(([id, { apiKey, ...entry }]) => [
      id,
      apiKey === undefined ? entry : { ...entry, [KEY_SHOWN_AS]: true },
    ]),
  );
  return { ...settings, providers, ...(roots === undefined ? {} : { allowedRoots: [...roots] }) };
}

/** GET /v1/owner/settings. */
export async function readOwnerSettings(deps: EngineDeps): Promise<OwnerSettings> {
  return withAllowedRoots(deps, await readSettings(deps.stores.settings));
}

/** PATCH /v1/owner/settings: the roots are not a patchable field (OwnerSettingsPatchSchema refuses them). */
export async function patchOwnerSettings(
  deps: EngineDeps,
  patch: OwnerSettingsPatch,
  checkProviders?: (entries: Readonly<Record<string, unknown>>) => void,
): Promise<OwnerSettings> {
  return withAllowedRoots(deps, await patchSettings(deps.stores.settings, patch, checkProviders));
}
