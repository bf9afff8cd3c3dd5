import { LIMITS } from "@oar/schema";
import { isAllowedFolder } from "../settings/allowed-folders";
import type { ActionContext, ActionSuccess } from "./context";
import { defaultFolder } from "./folders";
import { listGroupInfos } from "./groups";
import { offeredProviders, startableProviders } from "./providers";
import { plural } from "./summary";

const MODES = ["agent", "ask", "plan"] as const;
const RECENT_FOLDERS = 10;
// Recent folders come from the most recently active sessions; a few pages of them are plenty.
const SESSIONS_SCANNED_FOR_FOLDERS = 200;

async function recentFolders(ctx: ActionContext): Promise<string[]> {
  const sessions = await ctx.deps.stores.sessions.listSessions({
    scope: "all",
    limit: SESSIONS_SCANNED_FOR_FOLDERS,
  });
  const folders = new Set<string>();
  for (const session of sessions) {
    if (session.cwd !== null && isAllowedFolder(ctx.deps, session.cwd)) {
      folders.add(session.cwd);
    }
  }
  return [...folders].slice(0, RECENT_FOLDERS);
}

/**
 * §9: what this relay offers for a new session — providers with their models and efforts (the
 * list model checks use, R-RINFO-10), folders, modes, and its groups (≤ 50, most recently active
 * first, `groupsTotal` when there are more; R-RINFO-03 … R-RINFO-07).
 */
export async function relayInfo(ctx: ActionContext): Promise<ActionSuccess> {
  const { relay } = ctx.deps;
  const providers = offeredProviders(ctx.deps);
  const [groups, recent] = await Promise.all([
    listGroupInfos(ctx.deps, { limit: LIMITS.relayInfoGroupsMax }),
    recentFolders(ctx),
  ]);
  const unlisted = startableProviders(ctx.deps).filter((info) => info.models === null);
  return {
    details: `${plural(providers.length, "provider")}, ${plural(groups.total, "group")}`,
    fields: {
      name: relay.name,
      version: relay.version,
      platform: relay.platform,
      acceptsPrompts: ctx.settings.acceptPromptsFromOtherRelays,
      providers,
      folders: { default: defaultFolder(ctx.deps) ?? recent[0] ?? null, recent },
      modes: [...MODES],
      groups: groups.groups,
      ...(groups.total > groups.groups.length ? { groupsTotal: groups.total } : {}),
    },
    notes: unlisted.map((info) => `${info.label} has no model list yet: any model passes unchecked there.`),
  };
}
