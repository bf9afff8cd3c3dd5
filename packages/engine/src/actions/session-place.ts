import type { EngineDeps } from "../ports/engine-deps";
import type { ProviderInfo } from "../ports/provider";
import type { SessionRuntime } from "../runtime/session-runtime";
import { isAllowedFolder } from "../settings/allowed-folders";
import { checkFolder, defaultFolder } from "./folders";
import { findProvider } from "./providers";
import { refuse } from "./refusal";

/** Where a new session works: a folder, or a clone of a repository on a branch (R-CRE-07). */
export interface SessionPlace {
  readonly cwd: string | null;
  readonly repo: string | null;
  readonly branch: string | null;
}

export interface AskedPlace {
  readonly cwd?: string | undefined;
  readonly repo?: string | undefined;
  readonly branch?: string | undefined;
}

/** What a session that starts another passes on when the call omits it (R-CRE-03). */
export interface InheritedPlace extends SessionPlace {
  readonly provider: string | null;
}

export const worksOnRepository = (provider: ProviderInfo): boolean => provider.worksOn === "repository";

/**
 * A repository provider's session takes `repo` (and `branch`) and no folder; any other provider's
 * takes a folder and neither of those. Refused with REMOTE_RELAY_INVALID_INPUT naming the argument
 * before anything is written.
 */
export function placeSession(
  deps: EngineDeps,
  provider: ProviderInfo,
  asked: AskedPlace,
  inherited: InheritedPlace | null,
  nothing: string,
): SessionPlace {
  if (worksOnRepository(provider)) {
    if (asked.cwd !== undefined) {
      refuse(
        "REMOTE_RELAY_INVALID_INPUT",
        `cwd: a ${provider.id} session works on its own clone of a repository, not in a folder; give repo (owner/name or a URL) and branch instead. ${nothing}`,
      );
    }
    if (asked.repo !== undefined) {
      return { cwd: null, repo: asked.repo, branch: asked.branch ?? null };
    }
    // R-CRE-03: a cloud session that starts another of its kind passes on its repository.
    if (inherited !== null && inherited.provider === provider.id && inherited.repo !== null) {
      return { cwd: null, repo: inherited.repo, branch: asked.branch ?? inherited.branch };
    }
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `repo: a ${provider.id} session needs the repository it works on, as owner/name (e.g. "example-org/sample-repo") or a URL git accepts, and optionally a branch. ${nothing}`,
    );
  }
  const stray = (["repo", "branch"] as const).filter((key) => asked[key] !== undefined);
  if (stray.length > 0) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `${stray.join(" and ")}: only a session on a repository (provider "claude-cloud") takes ${stray.join(" and ")}; provider "${provider.id}" works in a folder (cwd). ${nothing}`,
    );
  }
  if (asked.cwd !== undefined) {
    return { cwd: checkFolder(deps, asked.cwd, nothing), repo: null, branch: null };
  }
  const folder = inherited?.cwd ?? null;
  return {
    cwd: folder !== null && isAllowedFolder(deps, folder) ? folder : defaultFolder(deps),
    repo: null,
    branch: null,
  };
}

/** R-UPD-24: a repository session has no folder to move to. */
export function refuseFolderOfRepository(
  provider: ProviderInfo,
  session: { readonly id: string; readonly repo: string | null },
  nothing: string,
): void {
  if (worksOnRepository(provider)) {
    refuse(
      "REMOTE_RELAY_INVALID_INPUT",
      `cwd: session ${session.id} is a ${provider.id} session, which works on a clone of its repository${session.repo === null ? "" : ` (${session.repo})`}, not in a folder. ${nothing}`,
    );
  }
}

/**
 * What the provider keeps on disk for a session that was archived or deleted (a repository
 * session's clone) goes, once its worker is closed. A failure is logged: the session's change
 * stands, and the files can be removed by hand.
 */
export async function discardSessionFiles(
  deps: EngineDeps,
  runtime: SessionRuntime,
  session: { readonly id: string; readonly provider: string },
): Promise<void> {
  const provider = findProvider(deps, session.provider);
  if (provider?.discardSession === undefined) {
    return;
  }
  await runtime.killWorker(session.id);
  try {
    await provider.discardSession(session.id);
  } catch (error) {
    deps.logger?.warn("a session's files could not be removed", {
      session: session.id,
      provider: session.provider,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** Compaction: the session that continues a repository session works on the same clone. */
export async function moveSessionFiles(
  deps: EngineDeps,
  runtime: SessionRuntime,
  moved: { readonly from: string; readonly to: string; readonly provider: string },
): Promise<void> {
  const provider = findProvider(deps, moved.provider);
  if (provider?.moveSessionFiles === undefined) {
    return;
  }
  await runtime.killWorker(moved.from);
  try {
    await provider.moveSessionFiles(moved.from, moved.to);
  } catch (error) {
    deps.logger?.warn("a session's files could not be handed on to the session that continues it", {
      session: moved.from,
      to: moved.to,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
