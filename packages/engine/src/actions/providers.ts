import type { ProviderInfo as WireProviderInfo } from "@oar/schema";
import type { EngineDeps } from "../ports/engine-deps";
import type { Provider, ProviderInfo } from "../ports/provider";
import { refuse } from "./refusal";

export function findProvider(deps: EngineDeps, id: string): Provider | undefined {
  return deps.providers.find((provider) => provider.info.id === id);
}

/** Providers an agent can start a session with: not the ones whose agent runs outside the relay. */
export function startableProviders(deps: EngineDeps): ProviderInfo[] {
  return deps.providers.map((provider) => provider.info).filter((info) => !info.drivenFromOutside);
}

/**
 * The providers a new session can start on, as relay_info lists them (R-RINFO-03) and the owner's
 * "start a conversation" offers them: models by id with the default named, efforts, and why one
 * cannot run now.
 */
export function offeredProviders(deps: EngineDeps): WireProviderInfo[] {
  return startableProviders(deps).map((info) => ({
    id: info.id,
    name: info.label,
    defaultModel: defaultModel(info),
    models: (info.models ?? []).map((model) => model.id),
    efforts: [...info.efforts],
    ...(info.worksOn === undefined ? {} : { worksOn: info.worksOn }),
    ...(info.notConfigured === undefined ? {} : { notConfigured: info.notConfigured }),
  }));
}

/** The provider a session runs on; gone from this relay → REMOTE_RELAY_PROVIDER_UNAVAILABLE. */
export function providerOfSession(
  deps: EngineDeps,
  session: { readonly id: string; readonly provider: string },
  nothing: string,
): ProviderInfo {
  const provider = findProvider(deps, session.provider);
  if (!provider) {
    refuse(
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      `Session ${session.id} runs on provider "${session.provider}", which relay "${deps.relay.name}" no longer offers. ${nothing}`,
    );
  }
  return provider.info;
}

/** External sessions have no worker: their agent runs outside the relay and takes no prompts (DESIGN §5). */
export function refuseDrivenFromOutside(
  info: ProviderInfo,
  session: { readonly id: string; readonly title: string },
  nothing: string,
): void {
  if (info.drivenFromOutside) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `Session ${session.id} ("${session.title}") is driven from outside the relay (provider "${info.id}"): its agent runs elsewhere and cannot take prompts. ${nothing}`,
    );
  }
}

/** A provider with no model list yet still needs a name on the row; the provider picks its own. */
export const UNLISTED_MODEL = "default";

/** The model a provider starts sessions with. */
export function defaultModel(info: ProviderInfo): string | null {
  const models = info.models ?? [];
  return (models.find((model) => model.default) ?? models[0])?.id ?? null;
}
