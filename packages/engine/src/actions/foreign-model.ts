import type { KnownRemoteCode } from "@oar/schema";
import type { Provider, ProviderInfo } from "../ports/provider";

/** Claude's subscription, API key and cloud are one provider to an agent: one family (R-MDL-06). */
const FAMILY_OF: Readonly<Record<string, string>> = { "claude-api": "claude", "claude-cloud": "claude" };

/** The code a create gets when this family alone lists the id (R-MDL-06); other families have none. */
const REQUIRED_BY_FAMILY: Readonly<Record<string, KnownRemoteCode>> = {
  claude: "CLAUDE_PROVIDER_REQUIRED",
};

const COPILOT_MODEL_UNAVAILABLE: KnownRemoteCode = "COPILOT_MODEL_UNAVAILABLE";

function familyOf(id: string): string {
  return FAMILY_OF[id] ?? id;
}

/** "A", "A and B", "A, B and C". */
function listed(items: readonly string[]): string {
  const last = items.at(-1) ?? "";
  return items.length < 2 ? last : `${items.slice(0, -1).join(", ")} and ${last}`;
}

/** Where another provider's model lives: who lists it, the relay's own code for it, and how to reach it. */
export interface ForeignModel {
  /** The labels of the other providers that list the id, for "is a model of …". */
  readonly owners: string;
  readonly remoteCode: KnownRemoteCode;
  /** The providers a new session could use it on, one per family (`"claude"`); empty when none can start one. */
  readonly startWith: readonly string[];
}

/** The member a new session would start on: a configured one before one that is not. */
function starterOf(members: readonly ProviderInfo[]): ProviderInfo | undefined {
  const startable = members.filter((info) => !info.drivenFromOutside);
  return startable.find((info) => info.notConfigured === undefined) ?? startable[0];
}

/**
 * The other provider families of this relay that list `model` (R-MDL-06); `null` when none does,
 * which leaves the id simply unknown. A create gets the code of the only family that lists it
 * when that family has one; anything else, and a session that exists, gets COPILOT_MODEL_UNAVAILABLE.
 */
export function foreignModel(input: {
  readonly provider: ProviderInfo;
  readonly model: string;
  readonly providers: readonly Pick<Provider, "info">[];
  readonly creates: boolean;
}): ForeignModel | null {
  const { provider, model, providers, creates } = input;
  const own = familyOf(provider.id);
  const byFamily = new Map<string, ProviderInfo[]>();
  for (const { info } of providers) {
    const family = familyOf(info.id);
    if (family !== own && info.models?.some((entry) => entry.id === model)) {
      byFamily.set(family, [...(byFamily.get(family) ?? []), info]);
    }
  }
  if (byFamily.size === 0) {
    return null;
  }
  const [only] = byFamily.keys();
  const required =
    creates && byFamily.size === 1 && only !== undefined ? REQUIRED_BY_FAMILY[only] : undefined;
  const listers = [...byFamily.values()].flat();
  return {
    owners: listed([...new Set(listers.map((info) => info.label))]),
    remoteCode: required ?? COPILOT_MODEL_UNAVAILABLE,
    startWith: [...byFamily.values()].flatMap((members) => starterOf(members)?.id ?? []),
  };
}
