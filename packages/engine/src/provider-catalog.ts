import { RelayError } from "@oar/core";
import type { OwnerSettings } from "@oar/schema";
import type { Provider, ProviderSource } from "./ports/provider";

/**
 * The providers of this relay: the built-in ones, and those the owner's settings make (command
 * CLIs, Claude Code's API key), rebuilt when those settings change (here or in another relay
 * process: the settings are re-read at most once a second).
 */
export interface ProviderCatalog {
  readonly current: readonly Provider[];
  /** Brings the list up to date with the settings; cheap when they did not change. */
  refresh(): Promise<void>;
  /** Refuses (REMOTE_RELAY_INVALID_INPUT, naming each bad field) entries no source takes as they are. */
  checkEntries(entries: Readonly<Record<string, unknown>>): void;
}

export function createProviderCatalog(options: {
  readonly builtIn: readonly Provider[];
  readonly sources: readonly ProviderSource[];
  readonly settings: () => Promise<OwnerSettings>;
}): ProviderCatalog {
  const { builtIn, sources } = options;
  let current: readonly Provider[] = builtIn;
  let built = "";

  const rebuild = (entries: Readonly<Record<string, unknown>>) => {
    const key = JSON.stringify(entries);
    if (key === built) {
      return;
    }
    built = key;
    const configured = sources.flatMap((source) => source.providers(entries));
    const builtInIds = new Set(builtIn.map((provider) => provider.info.id));
    current = [...builtIn, ...configured.filter((provider) => !builtInIds.has(provider.info.id))];
  };
  rebuild({});

  return {
    get current() {
      return current;
    },
    async refresh() {
      if (sources.length > 0) {
        rebuild((await options.settings()).providers);
      }
    },
    checkEntries(entries) {
      const problems = Object.entries(entries).flatMap(([id, entry]) => {
        for (const source of sources) {
          const found = source.check(id, entry);
          if (found !== undefined) {
            return [...found];
          }
        }
        return [
          `providers.${id}: no provider of this relay takes settings under "${id}"; a command provider needs "command" and "models", an ACP agent needs "acp", and "claude-api" takes "apiKey" and "monthlyCapUsd".`,
        ];
      });
      if (problems.length > 0) {
        throw new RelayError(
          "REMOTE_RELAY_INVALID_INPUT",
          `The providers in the settings have problems, so nothing was changed: ${problems.join(" ")}`,
        );
      }
    },
  };
}
