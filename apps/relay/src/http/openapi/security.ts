import { CLUSTER_SECRET_HEADER } from "../../cluster-link";
import type { Auth } from "./operation";

// Three bearer schemes, not one: the token kinds are never interchangeable (DESIGN §7), and a
// client must know which one a route takes.
export const securitySchemes = {
  ownerToken: {
    type: "http",
    scheme: "bearer",
    description:
      "The owner token: RELAY_OWNER_TOKEN, else the one the relay generated in its data directory and printed at start (`oar-relay token`).",
  },
  agentToken: {
    type: "http",
    scheme: "bearer",
    description:
      "The agent token of one session (POST /v1/owner/sessions/{id}/token, or given to the agent the relay runs): it names the calling conversation.",
  },
  peerInvite: {
    type: "http",
    scheme: "bearer",
    description:
      "An invite this relay issued (POST /v1/owner/peers/invites), held by the relay it paired with.",
  },
  clusterSecret: {
    type: "apiKey",
    in: "header",
    name: CLUSTER_SECRET_HEADER,
    description: "The secret of this relay's cluster, kept in its database: for its own processes only.",
  },
} as const;

const SCHEME_OF: Record<Exclude<Auth, "none">, keyof typeof securitySchemes> = {
  owner: "ownerToken",
  agent: "agentToken",
  peer: "peerInvite",
  cluster: "clusterSecret",
};

/** An operation's `security`: `[]` says explicitly that the route takes no credential. */
export function securityOf(auth: Auth): Record<string, string[]>[] {
  return auth === "none" ? [] : [{ [SCHEME_OF[auth]]: [] }];
}
