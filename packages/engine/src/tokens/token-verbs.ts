import { RelayError } from "@oar/core";
import type { EngineDeps } from "../ports/engine-deps";
import type { TokenRecord, TokenSecrets } from "../ports/token-store";
import { webCryptoSecrets } from "./token-secrets";

export function secretsOf(deps: EngineDeps): TokenSecrets {
  return deps.secrets ?? webCryptoSecrets;
}

/**
 * A fresh token of `kind`, stored as its hash; the token itself is returned once and never
 * again. An agent token stands for a session (its subject); an invite for itself.
 */
export async function issueToken(
  deps: EngineDeps,
  request: { readonly kind: "agent" | "invite"; readonly subject?: string },
): Promise<string> {
  const secrets = secretsOf(deps);
  const token = secrets.newToken(request.kind);
  const id = deps.ids.next("token");
  await deps.stores.tokens.storeToken({
    id,
    kind: request.kind,
    hash: await secrets.hash(token),
    subject: request.subject ?? id,
    label: null,
    createdAt: deps.clock.now(),
  });
  return token;
}

/** The live token of `kind` this bearer is, or null: the kinds are never interchangeable (DESIGN §7). */
export async function authenticate(
  deps: EngineDeps,
  kind: "agent" | "invite",
  token: string,
): Promise<TokenRecord | null> {
  const record = await deps.stores.tokens.findTokenByHash(await secretsOf(deps).hash(token));
  return record?.kind === kind ? record : null;
}

/**
 * An invite belongs to the first relay that calls with it: its name becomes the invite's label,
 * and a call naming another relay is refused, so one peer cannot speak as another (whose
 * conversations it could then act in as their starter, R-UPD-09).
 */
export async function bindInvite(deps: EngineDeps, invite: TokenRecord, relay: string): Promise<void> {
  if (invite.label !== null && invite.label.toLowerCase() === relay.toLowerCase()) {
    return;
  }
  if (invite.label === null && (await deps.stores.tokens.bindToken({ id: invite.id, label: relay }))) {
    return;
  }
  throw new RelayError(
    "REMOTE_RELAY_AUTH",
    `This invite belongs to another relay${invite.label === null ? "" : ` ("${invite.label}")`}: relay "${relay}" needs an invite of its own (POST /v1/owner/peers/invites on this relay).`,
  );
}
