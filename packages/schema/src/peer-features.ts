import type { Action } from "./actions/action-names";
import type { RelayToolCall } from "./actions/registry";
import { isEmptyValue } from "./call/empty";

/**
 * The peer surface's feature names (GET /v1/peer/info `features`, DESIGN §4): what a relay says
 * it supports, so that a relay calling it can gate on that rather than on a version number (one
 * OAR's numbering is not another's). A relay lists every name it supports; this one supports them
 * all.
 */
export const PEER_FEATURES = [
  /** POST /v1/peer/tool. */
  "tool",
  /** `origin.preflight`: the whole call checked there, nothing changed, before this relay's cards. */
  "preflight",
  "read_task_output",
  "billing_switch",
  "create_session_group",
  "update_session",
  "session_questions",
  "subscriptions",
] as const;
export type PeerFeature = (typeof PEER_FEATURES)[number];

/** A call that a paired relay runs only if it lists `feature`. */
export interface PeerFeatureGate {
  readonly feature: PeerFeature;
  /** The actions it gates. */
  readonly actions: readonly Action[];
  /** Only when the call has this argument (present and not empty, R-CALL-09); absent: every such call. */
  readonly argument?: string;
  /** The rule that refuses the call on a relay that lacks the feature. */
  readonly rule: string;
  /** What such a relay does not support, as the refusal says it: "The target relay doesn't support <what> yet: …". */
  readonly what: string;
}

/**
 * Which calls to a paired relay need which feature. A relay that does not list it gets none of
 * them: the calling relay refuses the call with REMOTE_RELAY_UNSUPPORTED before sending anything
 * (and before any card), because an older relay would run part of it its own way — a send whose
 * `provider` it ignores still sends the message (R-BILL-05: nothing is sent), a create_session
 * whose `group` it ignores creates a session in no group.
 */
export const PEER_FEATURE_GATES: readonly PeerFeatureGate[] = [
  { feature: "read_task_output", actions: ["read_task_output"], rule: "R-RTO-08", what: "read_task_output" },
  {
    feature: "billing_switch",
    actions: ["send"],
    argument: "provider",
    rule: "R-BILL-05",
    what: "switching billing with send",
  },
  {
    feature: "create_session_group",
    actions: ["create_session"],
    argument: "group",
    rule: "R-CGRP-07(d)",
    // The spec's own wording (R-CGRP-07(d)).
    what: "groups on create_session",
  },
  { feature: "update_session", actions: ["update_session"], rule: "R-UPD-28", what: "update_session" },
  {
    feature: "session_questions",
    // A question about one of its sessions is kept there (R-QCHK-05); listing and withdrawing are
    // the other two verbs on those questions, which such a relay cannot hold.
    actions: ["ask", "list_questions", "withdraw"],
    rule: "R-QCHK-06",
    what: "non-blocking questions about its sessions",
  },
  {
    feature: "subscriptions",
    // The other relay keeps the subscription and its events (§28).
    actions: ["subscribe", "unsubscribe", "list_subscriptions", "transfer_subscriptions"],
    rule: "R-PAIR-05",
    what: "subscriptions",
  },
];

/** The gate a call to a paired relay must pass, or `null` when any relay that takes calls runs it. */
export function peerFeatureGate(call: RelayToolCall): PeerFeatureGate | null {
  const args = call as Readonly<Record<string, unknown>>;
  return (
    PEER_FEATURE_GATES.find(
      (gate) =>
        gate.actions.includes(call.action) &&
        (gate.argument === undefined || !isEmptyValue(args[gate.argument])),
    ) ?? null
  );
}
