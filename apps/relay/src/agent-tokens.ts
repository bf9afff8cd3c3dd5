import { createHash, randomBytes } from "node:crypto";
import { type Clock, type IdGenerator, RelayError } from "@oar/core";
import type { TokenRecord, TokenStore } from "@oar/engine";

/** Tokens are kept as their sha256 (DESIGN §3, §7): a stolen database holds no usable token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A fresh random token of `kind`, stored as its hash; the token itself is returned once. */
async function issueToken(options: {
  readonly tokens: TokenStore;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly kind: "agent" | "invite";
  /** What it stands for; default its own id. */
  readonly subject?: string;
}): Promise<string> {
  const token = `oar_${options.kind}_${randomBytes(32).toString("base64url")}`;
  const id = options.ids.next("token");
  await options.tokens.storeToken({
    id,
    kind: options.kind,
    hash: hashToken(token),
    subject: options.subject ?? id,
    label: null,
    createdAt: options.clock.now(),
  });
  return token;
}

/**
 * A new agent token for a session (kind "agent", subject = the session id): how an external
 * agent, a CLI the relay starts, or a test acts as that conversation.
 */
export function issueAgentToken(options: {
  readonly tokens: TokenStore;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly sessionId: string;
}): Promise<string> {
  return issueToken({ ...options, kind: "agent", subject: options.sessionId });
}

/**
 * A new invite (kind "invite", subject = its own id, no label until the first relay calls with it):
 * the token another relay's owner adds when pairing with this one (DESIGN §4 POST
 * /v1/owner/peers/invites). Whoever holds it may call this relay's peer surface.
 */
export function issuePeerInvite(options: {
  readonly tokens: TokenStore;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}): Promise<string> {
  return issueToken({ ...options, kind: "invite" });
}

/**
 * An invite belongs to the first relay that calls with it: its name becomes the invite's label,
 * and a call naming another relay is refused, so one peer cannot speak as another (whose
 * conversations it could then act in as their starter, R-UPD-09).
 */
export async function bindInvite(options: {
  readonly tokens: TokenStore;
  readonly invite: TokenRecord;
  readonly relay: string;
}): Promise<void> {
  const { invite, relay } = options;
  if (invite.label !== null && invite.label.toLowerCase() === relay.toLowerCase()) {
    return;
  }
  if (invite.label === null && (await options.tokens.bindToken({ id: invite.id, label: relay }))) {
    return;
  }
  throw new RelayError(
    "REMOTE_RELAY_AUTH",
    `This invite belongs to another relay${invite.label === null ? "" : ` ("${invite.label}")`}: relay "${relay}" needs an invite of its own (POST /v1/owner/peers/invites on this relay).`,
  );
}
