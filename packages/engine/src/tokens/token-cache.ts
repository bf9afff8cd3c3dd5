import { type Clock, createTtlCache } from "@oar/core";
import type { TokenRecord, TokenStore } from "../ports/token-store";

/**
 * How long a token revoked by another relay process may still be accepted here (DESIGN §9).
 * Revocations made through this engine take effect at once.
 */
export const TOKEN_CACHE_MS = 1_000;

/**
 * Every agent and peer request looks its bearer up; the answer changes only when a token is
 * revoked. Live tokens are remembered for `ttlMs`; unknown ones are always asked again, so a
 * token is usable as soon as it is issued and a guessing client gains nothing from the cache.
 */
export function cachingTokenStore(
  store: TokenStore,
  options: { readonly clock: Clock; readonly ttlMs?: number },
): TokenStore & { forgetAll(): void } {
  const live = createTtlCache<string, TokenRecord | null>({
    clock: options.clock,
    ttlMs: options.ttlMs ?? TOKEN_CACHE_MS,
    keep: (record) => record !== null,
  });
  const clearing =
    <A, R>(write: (input: A) => Promise<R>) =>
    async (input: A): Promise<R> => {
      live.clear();
      try {
        return await write(input);
      } finally {
        live.clear();
      }
    };
  return {
    storeToken: (input) => store.storeToken(input),
    findTokenByHash: (hash) => live.get(hash, () => store.findTokenByHash(hash)),
    revokeToken: clearing((input) => store.revokeToken(input)),
    revokeTokensOf: clearing((input) => store.revokeTokensOf(input)),
    bindToken: clearing((input) => store.bindToken(input)),
    listTokens: (filter) => store.listTokens(filter),
    forgetAll: () => live.clear(),
  };
}
