import type {
  PeerEventsPage,
  PeerInfo,
  PeerQuestionStatus,
  PeerToolRequest,
  RelayToolResultEnvelope,
} from "@oar/schema";

/** Where a paired relay is and the bearer to present there. */
export interface PeerAddress {
  readonly name: string;
  readonly url: string;
  readonly token: string;
}

/**
 * The network to paired relays (DESIGN §4 peer surface); apps/relay implements it with
 * @oar/client, tests with one relay's app calling another's in process.
 *
 * Failures are RelayErrors: `REMOTE_RELAY_AUTH` when the peer refuses the token, `TIMEOUT` or
 * `NETWORK` when it does not answer, `VALIDATION` when its answer is not the protocol's, and
 * the peer's own wire code when it refuses the request itself (an old relay without the route:
 * `REMOTE_RELAY_UNSUPPORTED`). A refused relay_tool call is not a failure: it is the result
 * envelope with `ok: false`.
 */
export interface PeerLink {
  info(peer: PeerAddress, options?: { readonly signal?: AbortSignal }): Promise<PeerInfo>;
  /** `timeoutMs` bounds the whole exchange, the peer's own waiting included. */
  tool(
    peer: PeerAddress,
    request: PeerToolRequest,
    options: { readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<RelayToolResultEnvelope>;
  /**
   * A page of one of the peer's subscriptions this relay created (§28, R-PAIR-04): its events
   * after `after` (none: from its start), oldest first, at most `limit`. One that ended there and
   * has nothing left, or is unknown there: `REMOTE_RELAY_NOT_FOUND`.
   */
  subscriptionEvents(
    peer: PeerAddress,
    subscriptionId: string,
    query: { readonly after: string | null; readonly limit: number },
    options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<PeerEventsPage>;
  /** A question this relay asked there (R-QCHK-05); unknown there or not this relay's: `REMOTE_RELAY_NOT_FOUND`. */
  question(
    peer: PeerAddress,
    questionId: string,
    options?: { readonly timeoutMs?: number; readonly signal?: AbortSignal },
  ): Promise<PeerQuestionStatus>;
}
