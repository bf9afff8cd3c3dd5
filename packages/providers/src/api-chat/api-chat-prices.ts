/** What a model costs, in US dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * The relay's prices for the default models, from the vendors' price lists (cache hits and
 * time-of-day discounts left out: every input token is priced as a miss). The owner overrides
 * them per model with `providers.<id>.prices`; a model in neither has its tokens counted and no
 * cost.
 */
export const DEFAULT_API_CHAT_PRICES: PriceTable = {
  "grok-4.7": { inputPerMTok: 3, outputPerMTok: 15 },
  "grok-4.6": { inputPerMTok: 3, outputPerMTok: 15 },
  "grok-4.5": { inputPerMTok: 3, outputPerMTok: 15 },
  "deepseek-chat": { inputPerMTok: 0.28, outputPerMTok: 0.42 },
  "deepseek-reasoner": { inputPerMTok: 0.28, outputPerMTok: 0.42 },
};

// A price above this is a typo (a misplaced decimal point), not a price.
export const MAX_PRICE_PER_MTOK = 10_000;

/** What the tokens cost at that price; `undefined` without a price. */
export function costOf(
  price: ModelPrice | undefined,
  tokens: { readonly inputTokens: number; readonly outputTokens: number },
): number | undefined {
  if (price === undefined) {
    return undefined;
  }
  return (tokens.inputTokens * price.inputPerMTok + tokens.outputTokens * price.outputPerMTok) / 1_000_000;
}
