import { type PeerFeatureGate, peerFeatureGate, type RelayToolCall } from "@oar/schema";
import type { ActionContext } from "../actions/context";
import { refuse } from "../actions/refusal";
import { type PeerStatus, peerStatus } from "../pairing/peer-status";
import type { PeerRecord } from "../ports/peer-store";

function unsupportedMessage(
  gate: PeerFeatureGate,
  peer: PeerRecord,
  call: RelayToolCall,
  version: string | null,
): string {
  const runs = version === null ? "" : ` (version ${version})`;
  const without =
    gate.argument === undefined ? "" : ` ${call.action} without ${gate.argument} still works there.`;
  return `The target relay doesn't support ${gate.what} yet: relay "${peer.name}"${runs} does not list "${gate.feature}" among its features (GET /v1/peer/info), so it needs an update. Nothing was sent there.${without}`;
}

/**
 * R-RTO-08, R-BILL-05, R-CGRP-07(d), R-UPD-28, R-QCHK-06, R-PAIR-05: a call that needs a feature
 * (PEER_FEATURE_GATES) goes to the paired relay only if it lists that feature. What it lists is
 * its last answer to GET /v1/peer/info (asked again at most every PEER_STATUS_TTL_MS). A relay
 * that never answered is asked now, before each such call; if it still does not answer, or
 * refuses this relay, the call gets that usual code (R-CGRP-07(d), R-ERR-04) rather than being
 * sent to a relay that may be too old for it (R-BILL-05: nothing is sent). Called before anything
 * goes to the peer and before any card: a card for a call that will be refused would ask the
 * owner for nothing. Changes nothing; returns the status it read, if any.
 */
export async function refuseUnsupportedCall(
  ctx: ActionContext,
  peer: PeerRecord,
  call: RelayToolCall,
): Promise<PeerStatus | undefined> {
  const gate = peerFeatureGate(call);
  if (gate === null) {
    return undefined;
  }
  // Never answered: asked now, not from a failure noted a moment ago (it may have come up since).
  const status = await peerStatus(ctx.deps, ctx.live.peerStatus, peer, { fresh: peer.features === null });
  if (status.features === null) {
    refuse(
      status.problemCode ?? "REMOTE_RELAY_UNREACHABLE",
      `Relay "${peer.name}" has never said which features it supports: ${status.problem ?? "it has not answered yet"}. This relay cannot tell whether it supports ${gate.what}, so nothing was sent there; try again once it answers.`,
    );
  }
  if (!status.features.includes(gate.feature)) {
    refuse("REMOTE_RELAY_UNSUPPORTED", unsupportedMessage(gate, peer, call, status.version));
  }
  return status;
}
