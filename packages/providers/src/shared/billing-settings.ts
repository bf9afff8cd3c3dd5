// A cap above this is a typo (an extra zero or two), not a budget.
export const MAX_MONTHLY_CAP_USD = 1_000_000;

/** What is wrong with an API key entry's `apiKey`, naming `at`; `undefined` when it is good. */
export function apiKeyProblem(at: string, apiKey: unknown, keyName: string): string | undefined {
  if (typeof apiKey !== "string" || apiKey === "") {
    return `${at}: must be the ${keyName}, a non-empty string`;
  }
  if (/\s/.test(apiKey)) {
    return `${at}: must not contain spaces or line breaks (a pasted key often carries them)`;
  }
  return undefined;
}

/** What is wrong with a `monthlyCapUsd`, naming `at`; `undefined` when it is absent or good. */
export function monthlyCapProblem(at: string, cap: unknown): string | undefined {
  if (
    cap === undefined ||
    (typeof cap === "number" && Number.isFinite(cap) && cap > 0 && cap <= MAX_MONTHLY_CAP_USD)
  ) {
    return undefined;
  }
  return `${at}: must be a number of US dollars above 0 and at most ${MAX_MONTHLY_CAP_USD}`;
}
