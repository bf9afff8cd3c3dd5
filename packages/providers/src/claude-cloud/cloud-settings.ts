export const CLAUDE_CLOUD_PROVIDER_ID = "claude-cloud";

/** Where `owner/name` repositories are cloned from when the owner sets nothing. */
export const DEFAULT_GIT_BASE_URL = "https://github.com/";

/** A `settings.providers["claude-cloud"]` entry that passed `checkCloudEntry`. */
export interface CloudEntry {
  readonly gitBaseUrl?: string;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A URL git clones from: a scheme git knows, or the scp-like `user@host:` form. */
export function isGitUrl(value: string): boolean {
  return /^(https?|ssh|git|file):\/\/\S+$/.test(value) || /^[\w.-]+@[\w.-]+:\S*$/.test(value);
}

/** The problems of a `claude-cloud` entry, each naming its field; `undefined` for any other id. */
export function checkCloudEntry(id: string, entry: unknown): readonly string[] | undefined {
  if (id !== CLAUDE_CLOUD_PROVIDER_ID) {
    return undefined;
  }
  const at = `providers.${id}`;
  if (!isRecord(entry)) {
    return [`${at}: must be an object like {"gitBaseUrl": "https://github.com/"}`];
  }
  const { gitBaseUrl, ...rest } = entry;
  const problems: string[] = [];
  if (gitBaseUrl !== undefined && (typeof gitBaseUrl !== "string" || !isGitUrl(gitBaseUrl))) {
    problems.push(
      `${at}.gitBaseUrl: must be a URL git clones from (https://, ssh://, git://, file:// or user@host:), under which owner/name repositories are found`,
    );
  }
  for (const field of Object.keys(rest)) {
    problems.push(`${at}.${field}: unknown setting; claude-cloud takes gitBaseUrl`);
  }
  return problems;
}

/** The entry's settings, when `checkCloudEntry` finds nothing wrong with it; else the defaults. */
export function readCloudEntry(entry: unknown): CloudEntry {
  if (!isRecord(entry) || (checkCloudEntry(CLAUDE_CLOUD_PROVIDER_ID, entry)?.length ?? 0) > 0) {
    return {};
  }
  return typeof entry.gitBaseUrl === "string" ? { gitBaseUrl: entry.gitBaseUrl } : {};
}

const OWNER_AND_NAME = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/**
 * What git clones for a session's `repo`: a URL as it is, `owner/name` under the base URL. Throws
 * with the reason for anything else, so that no argument reaches git as an option.
 */
export function repositoryUrl(repo: string, gitBaseUrl: string = DEFAULT_GIT_BASE_URL): string {
  if (isGitUrl(repo)) {
    return repo;
  }
  if (!OWNER_AND_NAME.test(repo) || repo.split("/").some((part) => part === "." || part === "..")) {
    throw new Error(
      `repo "${repo}" is neither owner/name (e.g. example-org/sample-repo) nor a URL git clones from.`,
    );
  }
  return `${gitBaseUrl.endsWith("/") || gitBaseUrl.endsWith(":") ? gitBaseUrl : `${gitBaseUrl}/`}${repo}`;
}
