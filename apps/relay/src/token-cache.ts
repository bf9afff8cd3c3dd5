import { type Clock, createTtlCache } from "@oar/core";
import type { TokenRecord, TokenStore } from "@oar/engine";

/**
 * How long a token revoked by another relay process may still be accepted here (DESIGN §9).
 * Revocations made through this process take effect at once.
 */
export const TOKEN_CACHE_MS = 1_000;

/**
 * Every agent request looks its bearer up; the answer changes only when a token is revoked.
 * Live tokens are remembered for `ttlMs`; unknown ones are always asked again, so a token is
 * usable as soon as it is issued and a guessing client gains nothing from the cache.
 */
export function cachingTokenStore(
  store: TokenStore,
  options: { readonly clock: Clock; readonly ttlMs?: number },
): TokenStore {
  const live = createTtlCache<string, TokenRecord | null>({
    clock: options.clock,
    ttlMs: options.ttlMs ?? TOKEN_CACHE_MS,
    keep: (record) => record !== null,
  });
  return {
    storeToken: (input) => store.storeToken(input),
    findTokenByHash: (hash) => live.get(hash, () => store.findTokenByHash(hash)),
    async revokeToken(input) {
      live.clear();
      const revoked = await store.revokeToken(input);
      live.clear();
      return revoked;
    },
    async revokeTokensOf(input) {
      live.clear();
      const revoked = await store.revokeTokensOf(input);
      live.clear();
      return revoked;
    },
    async bindToken(input) {
      live.clear();
      const bound = await store.bindToken(input);
      live.clear();
      return bound;
    },
    listTokens: (filter) => store.listTokens(filter),
  };
}
