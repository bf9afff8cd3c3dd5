import type { ProviderSessionSettings } from "@oar/engine";

export const GROK_PROVIDER_ID = "grok";
export const DEEPSEEK_PROVIDER_ID = "deepseek";

export type ApiChatProviderId = typeof GROK_PROVIDER_ID | typeof DEEPSEEK_PROVIDER_ID;

export const API_CHAT_PROVIDER_IDS: readonly ApiChatProviderId[] = [GROK_PROVIDER_ID, DEEPSEEK_PROVIDER_ID];

/** What the relay knows of a vendor whose models it runs itself over an OpenAI-compatible chat API. */
export interface ApiChatVendor {
  readonly id: ApiChatProviderId;
  /** The name in what the relay says: `Grok's API refused the request …`. */
  readonly name: string;
  readonly label: string;
  /** What the owner's key is, in the settings check's problems. */
  readonly keyName: string;
  readonly defaultBaseUrl: string;
  /** The first is the default. */
  readonly defaultModels: readonly string[];
  /** The context window in tokens when the session sets none (`auto_compact_window` "auto" or absent). */
  readonly defaultWindowTokens: number;
  /** Absent: update_session's window and thinking settings change nothing, and the relay says so. */
  readonly sessionSettings?: ProviderSessionSettings;
}

export const GROK: ApiChatVendor = {
  id: GROK_PROVIDER_ID,
  name: "Grok",
  label: "Grok (xAI API)",
  keyName: "xAI API key",
  defaultBaseUrl: "https://api.x.ai/v1",
  defaultModels: ["grok-4.7", "grok-4.6", "grok-4.5"],
  defaultWindowTokens: 256_000,
};

export const DEEPSEEK: ApiChatVendor = {
  id: DEEPSEEK_PROVIDER_ID,
  name: "DeepSeek",
  label: "DeepSeek (API)",
  keyName: "DeepSeek API key",
  defaultBaseUrl: "https://api.deepseek.com/v1",
  defaultModels: ["deepseek-chat", "deepseek-reasoner"],
  defaultWindowTokens: 128_000,
  // R-UPD-08: DeepSeek's window can be set, 0 standing for its largest; its thinking cannot.
  sessionSettings: {
    window: { zeroMeansTokens: 400_000 },
    thinking: "a DeepSeek session always uses thinking, so it cannot be turned off.",
  },
};

export const API_CHAT_VENDORS: Readonly<Record<ApiChatProviderId, ApiChatVendor>> = {
  [GROK_PROVIDER_ID]: GROK,
  [DEEPSEEK_PROVIDER_ID]: DEEPSEEK,
};

export function isApiChatProviderId(id: string): id is ApiChatProviderId {
  return (API_CHAT_PROVIDER_IDS as readonly string[]).includes(id);
}

/** Said by a provider with no usable key; its turns end `error` with the same text. */
export function apiChatNotConfigured(vendor: ApiChatVendor): string {
  return `${vendor.name} has no API key on this relay: the owner sets providers.${vendor.id}.apiKey in the settings.`;
}

/** Said when the stored entry has problems (the settings check refuses such entries, so an old one). */
export function apiChatBadSettings(vendor: ApiChatVendor): string {
  return `${vendor.name}'s settings on this relay have problems: the owner fixes providers.${vendor.id} in the settings.`;
}

// The relay prices the API's token counts itself: neither API reports what a request cost.
export function apiChatCostEstimate(vendor: ApiChatVendor): string {
  return `The relay's estimate from the token counts ${vendor.name}'s API reports and a price table (the relay's own, or providers.${vendor.id}.prices); the vendor's bill may differ.`;
}
