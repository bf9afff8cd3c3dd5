import { apiKeyProblem, monthlyCapProblem } from "../shared/billing-settings";
export const CLAUDE_PROVIDER_ID = "claude";
export const CLAUDE_API_PROVIDER_ID = "claude-api";

export { MAX_MONTHLY_CAP_USD } from "../shared/billing-settings";

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
  for (const problem of [
    apiKeyProblem(`${at}.apiKey`, apiKey, "Anthropic API key"),
    monthlyCapProblem(`${at}.monthlyCapUsd`, monthlyCapUsd),
  ]) {
    if (problem !== undefined) {
      problems.push(problem);
    }
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
