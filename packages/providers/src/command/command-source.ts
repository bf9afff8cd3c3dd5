import type { ProviderSource } from "@oar/engine";
import { type CommandProviderOptions, createCommandProvider } from "./command-provider";
import { isCommandEntry, parseCommandDefinition } from "./definition";

/**
 * The command providers of `settings.providers` (DESIGN §4): every entry with a `command` key.
 * Other entries (`claude-api`'s key, …) belong to other sources, so `check` leaves them alone.
 */
export function commandProviderSource(options: CommandProviderOptions): ProviderSource {
  return {
    check(id, entry) {
      if (!isCommandEntry(entry)) {
        return undefined;
      }
      const parsed = parseCommandDefinition(id, entry);
      return parsed.ok ? [] : parsed.error;
    },
    providers(entries) {
      return Object.entries(entries).flatMap(([id, entry]) => {
        if (!isCommandEntry(entry)) {
          return [];
        }
        const parsed = parseCommandDefinition(id, entry);
        return parsed.ok ? [createCommandProvider(id, parsed.value, options)] : [];
      });
    },
  };
}
