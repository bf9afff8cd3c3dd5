import type { PeerEventsPage, PeerEventsQuery, PeerOrigin, PeerQuestionStatus } from "@oar/schema";
import type { OwnerApi } from "./owner/owner-api";
import type { ClusterReply, ClusterRequest } from "./ports/cluster-link";
import type { TokenRecord } from "./ports/token-store";
import type { ExecuteOptions, ToolResult } from "./ports/tool-result";
import type { PruneReport } from "./retention/pruner";

export interface Engine {
  /** Runs one relay_tool call for the calling session (parse, rules, action); never throws for bad input. */
  execute(callerSessionId: string, input: unknown, options?: ExecuteOptions): Promise<ToolResult>;
  /**
   * Runs one relay_tool call that another relay's agent made through the peer surface (DESIGN §4):
   * this relay applies its side of the rules — Accept prompts (R-PERM-07/08), the hop rule
   * (R-HOP-01), who started a session (R-UPD-12) — and gives the prompts the remote header (R-HOP-03).
   */
  executeFromPeer(origin: PeerOrigin, input: unknown, options?: ExecuteOptions): Promise<ToolResult>;
  /**
   * The live token of `kind` a bearer is, or null (DESIGN §7: the kinds are never
   * interchangeable). A token revoked through this engine is refused at once, one revoked by
   * another relay process within a second.
   */
  authenticate(kind: "agent" | "invite", token: string): Promise<TokenRecord | null>;
  /** Binds an unused invite to the relay calling with it; an invite bound to another relay → REMOTE_RELAY_AUTH. */
  bindInvite(invite: TokenRecord, relay: string): Promise<void>;
  /** Whether relay_tool is offered to this session (DESIGN GAP-02); `tools/list` follows it. */
  isToolEnabled(sessionId: string): Promise<boolean>;
  /**
   * GET /v1/peer/subscriptions/:id/events (§28): a page of the events of a subscription that
   * `relay` (the relay the invite is bound to; `null`: none yet) holds here. Unknown, another
   * relay's, or ended with nothing left: RelayError REMOTE_RELAY_NOT_FOUND.
   */
  peerSubscriptionEvents(
    relay: string | null,
    subscriptionId: string,
    query: PeerEventsQuery,
  ): Promise<PeerEventsPage>;
  /** GET /v1/peer/questions/:id: a question `relay` asked here (R-QCHK-05); another's or unknown: REMOTE_RELAY_NOT_FOUND. */
  peerQuestion(relay: string | null, questionId: string): Promise<PeerQuestionStatus>;
  readonly owner: OwnerApi;
  /**
   * Resolves once the event dispatcher has nothing left to do now: what the outbox holds is
   * routed and what is due is sent (tests and benchmarks, after moving a fake clock); a poll of
   * paired relays' events under way ends first.
   */
  settleEvents(): Promise<void>;
  /**
   * One pass of old rows' pruning now (DESIGN §9), as the timer of `EngineDeps.retention` runs
   * it; with no retention options, by their defaults. Kinds another process is pruning are skipped.
   */
  pruneNow(): Promise<PruneReport>;
  /**
   * The address the other processes of the cluster reach this one at (DESIGN §9), once it
   * listens: written to its lease now, so that they find it for what runs here.
   */
  announce(address: string): Promise<void>;
  /**
   * A request another process of the cluster sent this one (`target`: the runner lease it meant),
   * done here only (the app's cluster-internal route). This process is not `target`:
   * RelayError REMOTE_RELAY_NOT_FOUND.
   */
  serveCluster<R extends ClusterRequest>(request: R, target: string): Promise<ClusterReply<R>>;
  /** Recovers after a restart (running turns → error, queued turns start). */
  start(): Promise<void>;
  /** Closes every worker. The stores stay open: their owner closes them. */
  close(): Promise<void>;
}
