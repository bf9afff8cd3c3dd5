import type { TokenKind } from "@oar/schema";

export interface TokenRecord {
  readonly id: string;
  readonly kind: TokenKind;
  /** Hex sha256 of the token; the token itself is never stored. */
  readonly hash: string;
  /** What the token stands for: `owner`, a session id, or an invite's own id. */
  readonly subject: string;
  readonly label: string | null;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

export interface NewToken {
  readonly id: string;
  readonly kind: TokenKind;
  readonly hash: string;
  readonly subject: string;
  readonly label?: string | null;
  readonly createdAt: number;
}

export interface TokenStore {
  /** A hash already stored is refused (the store throws): sha256 of a fresh random token never repeats. */
  storeToken(input: NewToken): Promise<TokenRecord>;
  /** The token with that hash unless revoked. */
  findTokenByHash(hash: string): Promise<TokenRecord | null>;
  revokeToken(input: { readonly id: string; readonly at: number }): Promise<boolean>;
  /** Revokes every live token of that kind and subject (a session's agent token, a peer's tokens). */
  revokeTokensOf(input: {
    readonly kind: TokenKind;
    readonly subject: string;
    readonly at: number;
  }): Promise<number>;
  /**
   * Gives a live token that has no label this one (compare-and-set): an invite is bound to the
   * first relay that uses it. True when the token now has this label, set now or before.
   */
  bindToken(input: { readonly id: string; readonly label: string }): Promise<boolean>;
  /** Live tokens, oldest first. */
  listTokens(filter?: { readonly kind?: TokenKind; readonly subject?: string }): Promise<TokenRecord[]>;
}

/** How tokens are made and kept (DESIGN §7): unguessable text, stored only as a hash. */
export interface TokenSecrets {
  /** A fresh random token; its prefix names its kind (`oar_agent_…`, `oar_invite_…`). */
  newToken(kind: "agent" | "invite"): string;
  /** What the store keeps of a token: its sha256, hex. A stolen database holds no usable token. */
  hash(token: string): Promise<string>;
}
