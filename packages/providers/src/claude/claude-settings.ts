export const CLAUDE_PROVIDER_ID = "claude";
export const CLAUDE_API_PROVIDER_ID = "claude-api";

// A cap above this is a typo (an extra zero or two), not a budget.
export const MAX_MONTHLY_CAP_USD = 1_000_000;

export const CLAUDE_API_NOT_CONFIGURED =
  'Claude API has no API key on this relay: the owner sets providers["claude-api"].apiKey in the settings.';

/** A `settings.providers["claude-api"]` entry that passed `checkClaudeEntry`. */
export interface ClaudeApiEntry {
  readonly apiKey: string;
  readonly monthlyCapUsd?: number;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The problems of a `claude` or `claude-api` settings entry, each naming its field; `undefined`
 * for any other provider id.
 */
export function checkClaudeEntry(id: string, entry: unknown): readonly string[] | undefined {
  if (id !== CLAUDE_PROVIDER_ID && id !== CLAUDE_API_PROVIDER_ID) {
    return undefined;
  }
  const at = `providers.${id}`;
  if (!isRecord(entry)) {
    return [`${at}: must be an object${id === CLAUDE_API_PROVIDER_ID ? ' like {"apiKey": "…"}' : " ({})"}`];
  }
  if (id === CLAUDE_PROVIDER_ID) {
    return Object.keys(entry).map(
      (field) =>
        `${at}.${field}: claude takes no settings (it uses the Claude Code login of the relay's user)`,
    );
  }
  const problems: string[] = [];
  const { apiKey, monthlyCapUsd, ...rest } = entry;
  if (typeof apiKey !== "string" || apiKey === "") {
    problems.push(`${at}.apiKey: must be the Anthropic API key, a non-empty string`);
  } else if (/\s/.test(apiKey)) {
    problems.push(`${at}.apiKey: must not contain spaces or line breaks (a pasted key often carries them)`);
  }
  if (
    monthlyCapUsd !== undefined &&
    !(
      typeof monthlyCapUsd === "number" &&
      Number.isFinite(monthlyCapUsd) &&
      monthlyCapUsd > 0 &&
      monthlyCapUsd <= MAX_MONTHLY_CAP_USD
    )
  ) {
    problems.push(
      `${at}.monthlyCapUsd: must be a number of US dollars above 0 and at most ${MAX_MONTHLY_CAP_USD}`,
    );
  }
  for (const field of Object.keys(rest)) {
    problems.push(`${at}.${field}: unknown setting; claude-api takes apiKey and monthlyCapUsd`);
  }
  return problems;
}

/** The entry's key and cap, when `checkClaudeEntry` finds nothing wrong with it. */
export function readClaudeApiEntry(entry: unknown): ClaudeApiEntry | undefined {
  if (!isRecord(entry) || (checkClaudeEntry(CLAUDE_API_PROVIDER_ID, entry)?.length ?? 0) > 0) {
    return undefined;
  }
  const { apiKey, monthlyCapUsd } = entry as unknown as ClaudeApiEntry;
  return monthlyCapUsd === undefined ? { apiKey } : { apiKey, monthlyCapUsd };
}
