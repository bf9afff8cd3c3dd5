import { RelayError } from "@oar/core";
import type { Provider } from "../ports/provider";

// The built-in agent needs no account, so a relay that has it starts the owner's conversations on it.
const PREFERRED_PROVIDER = "script";

/** The provider named, else `script` when the relay has it, else the first one configured. */
export function chooseProvider(providers: readonly Provider[], id?: string): Provider {
  if (id === undefined) {
    const chosen = providers.find((p) => p.info.id === PREFERRED_PROVIDER) ?? providers[0];
    if (!chosen) {
      throw new RelayError("REMOTE_RELAY_PROVIDER_UNAVAILABLE", "This relay has no provider configured.");
    }
    return chosen;
  }
  const named = providers.find((p) => p.info.id === id);
  if (!named) {
    const ids = providers.map((p) => p.info.id).join(", ");
    throw new RelayError(
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      `provider "${id}" is not configured on this relay. Providers: ${ids || "none"}. Nothing was created.`,
    );
  }
  if (named.info.notConfigured !== undefined) {
    throw new RelayError(
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      `${named.info.notConfigured} Nothing was created.`,
    );
  }
  return named;
}
