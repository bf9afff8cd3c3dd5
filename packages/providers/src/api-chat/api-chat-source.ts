import type { Provider, ProviderInfo, ProviderSource } from "@oar/engine";
import { type ApiChatEntry, parseApiChatEntry } from "./api-chat-settings";
import {
  API_CHAT_PROVIDER_IDS,
  API_CHAT_VENDORS,
  type ApiChatVendor,
  apiChatBadSettings,
  apiChatCostEstimate,
  apiChatNotConfigured,
  isApiChatProviderId,
} from "./api-chat-vendors";
import { createApiChatWorker } from "./api-chat-worker";

export interface ApiChatSourceOptions {
  /** How many model calls a turn may make (each answered call of relay_tool takes one more); default 25. */
  readonly maxSteps?: number;
  /**
   * How long, in seconds of the relay's clock, the API may keep a turn waiting for an answer (from
   * the turn's start or the last relay_tool result) before the turn ends `error`; default 600.
   */
  readonly timeoutSeconds?: number;
}

export const DEFAULT_API_CHAT_MAX_STEPS = 25;
export const DEFAULT_API_CHAT_TIMEOUT_SECONDS = 600;

/** The offer of a vendor's provider, as the entry makes it. The key is never part of it. */
function apiChatInfo(
  vendor: ApiChatVendor,
  entry: ApiChatEntry | undefined,
  notConfigured: string,
): ProviderInfo {
  const models = entry?.models ?? vendor.defaultModels;
  return {
    id: vendor.id,
    label: vendor.label,
    models: models.map((id, index) => (index === 0 ? { id, default: true } : { id })),
    efforts: [],
    usageTracked: true,
    costEstimate: apiChatCostEstimate(vendor),
    ...(vendor.sessionSettings === undefined ? {} : { sessionSettings: vendor.sessionSettings }),
    ...(entry === undefined ? { notConfigured } : {}),
    ...(entry?.monthlyCapUsd === undefined ? {} : { monthlyCapUsd: entry.monthlyCapUsd }),
  };
}

/**
 * `grok` and `deepseek` (DESIGN §5): models with no CLI, whose agent loop the relay runs itself
 * against the vendor's OpenAI-compatible chat API with relay_tool as the model's one tool. Both are
 * always listed; without a usable `settings.providers.<id>` entry (an API key) they say they are
 * not configured.
 */
export function apiChatProviderSource(options: ApiChatSourceOptions = {}): ProviderSource {
  const maxSteps = options.maxSteps ?? DEFAULT_API_CHAT_MAX_STEPS;
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_API_CHAT_TIMEOUT_SECONDS;
  // The composition root's values, not the owner's: a bad one is a bug, found at start.
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(`apiChatProviderSource: maxSteps must be a whole number from 1 (got ${maxSteps})`);
  }
  if (!(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0)) {
    throw new RangeError(`apiChatProviderSource: timeoutSeconds must be above 0 (got ${timeoutSeconds})`);
  }
  return {
    check(id, entry) {
      if (!isApiChatProviderId(id)) {
        return undefined;
      }
      const parsed = parseApiChatEntry(API_CHAT_VENDORS[id], entry);
      return parsed.ok ? [] : parsed.error;
    },
    providers(entries) {
      return API_CHAT_PROVIDER_IDS.map((id): Provider => {
        const vendor = API_CHAT_VENDORS[id];
        const given = entries[id];
        const parsed = given === undefined ? undefined : parseApiChatEntry(vendor, given);
        const entry = parsed?.ok ? parsed.value : undefined;
        const notConfigured =
          parsed === undefined ? apiChatNotConfigured(vendor) : apiChatBadSettings(vendor);
        return {
          info: apiChatInfo(vendor, entry, notConfigured),
          startWorker: (session) =>
            createApiChatWorker({ vendor, entry, notConfigured, maxSteps, timeoutSeconds }, session),
        };
      });
    },
  };
}
