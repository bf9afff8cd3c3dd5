import type { JsonObject } from "@oar/engine";
import type { ChatTurn } from "./api-chat-history";
import type { ApiChatVendor } from "./api-chat-vendors";

// English text and JSON run at about four characters a token in the vendors' tokenizers.
const CHARS_PER_TOKEN = 4;

/** A rough token count of what a value sends, from its JSON's length. */
export function estimateTokens(value: unknown): number {
  return Math.ceil((JSON.stringify(value) ?? "").length / CHARS_PER_TOKEN);
}

/**
 * The session's window in tokens (R-UPD-07/08): `auto_compact_window` where the vendor lets the
 * session set it (0 = the vendor's largest), else the vendor's default.
 */
export function windowTokensOf(vendor: ApiChatVendor, settings: JsonObject | undefined): number {
  const window = vendor.sessionSettings?.window;
  const setting = settings?.auto_compact_window;
  if (window === undefined || window === false || typeof setting !== "number" || setting < 0) {
    return vendor.defaultWindowTokens;
  }
  if (setting === 0) {
    return typeof window === "object" ? window.zeroMeansTokens : vendor.defaultWindowTokens;
  }
  return setting;
}

export interface WindowFit {
  /** The earlier turns that are sent and kept, oldest first. */
  readonly turns: readonly ChatTurn[];
  readonly dropped: number;
}

/**
 * Drops the oldest whole turns until the request (`fixedTokens` for the system prompt and the
 * tool, the earlier turns, the new prompt) fits the window. The new prompt always stays.
 */
export function fitWindow(options: {
  readonly turns: readonly ChatTurn[];
  readonly prompt: ChatTurn;
  readonly fixedTokens: number;
  readonly windowTokens: number;
}): WindowFit {
  const sizes = options.turns.map(estimateTokens);
  let total = options.fixedTokens + estimateTokens(options.prompt) + sizes.reduce((sum, n) => sum + n, 0);
  let dropped = 0;
  while (dropped < sizes.length && total > options.windowTokens) {
    total -= sizes[dropped] ?? 0;
    dropped += 1;
  }
  return { turns: options.turns.slice(dropped), dropped };
}

/** The line that says so in the reply. */
export function droppedTurnsLine(dropped: number, windowTokens: number): string {
  const turns = dropped === 1 ? "1 earlier turn was" : `${dropped} earlier turns were`;
  return `⚠️ ${turns} dropped from this conversation to keep it within its window of ${withCommas(windowTokens)} tokens.`;
}

function withCommas(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
