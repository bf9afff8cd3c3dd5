import {
  PeerEventsPageSchema,
  PeerEventsQuerySchema,
  PeerInfoSchema,
  PeerQuestionStatusSchema,
  PeerToolRequestSchema,
} from "@oar/schema";
import { component, inline, input, type Operation, ok, onSurface, output } from "./operation";
import { PeerPreflightResultSchema } from "./response-schemas";

// 410, not 404: to a peer client a 404 means a relay without the route (an older OAR).
const gone = (what: string) => ({
  status: 410,
  description: `${what}; the envelope's code is REMOTE_RELAY_NOT_FOUND.`,
  bodies: [{ schema: component("ErrorEnvelope") }],
});

/** The peer surface (DESIGN §4), prefix /v1/peer, bearer = an invite this relay issued. */
export const peerOperations: readonly Operation[] = onSurface({ tag: "peer", auth: "peer" }, [
  {
    operationId: "peerInfo",
    method: "get",
    path: "/v1/peer/info",
    summary: "This relay's name, version and the features a caller may gate its calls on",
    responses: [ok("The relay.", output("PeerInfo", PeerInfoSchema))],
  },
  {
    operationId: "peerTool",
    method: "post",
    path: "/v1/peer/tool",
    summary: "A relay_tool call another relay's agent made, with where it comes from",
    description:
      "Answered like /v1/tool: HTTP 200 for every well-formed call, the response started at once and kept alive with spaces while the call waits. `call` is the agent's call object as received: this relay parses it with its own version. With `origin.preflight` the call is checked and nothing is done.",
    body: { required: true, schema: input("PeerToolRequest", PeerToolRequestSchema) },
    responses: [
      {
        status: 200,
        description: "The call's result, or the preflight's answer.",
        bodies: [
          {
            schema: inline({
              anyOf: [
                { $ref: "#/components/schemas/RelayToolResult" },
                { $ref: "#/components/schemas/PeerPreflightResult" },
              ],
            }),
          },
        ],
      },
    ],
  },
  {
    operationId: "peerSubscriptionEvents",
    method: "get",
    path: "/v1/peer/subscriptions/{id}/events",
    pathParams: { id: "The subscription's id, as this relay gave it to the caller." },
    summary: "Replay of a subscription's events after a link loss",
    query: PeerEventsQuerySchema,
    responses: [
      ok(
        "A page of events; `cursor` goes in `after` for the next.",
        output("PeerEventsPage", PeerEventsPageSchema),
      ),
      gone("No such subscription for this invite's relay, or it ended with nothing left to replay"),
    ],
  },
  {
    operationId: "peerQuestion",
    method: "get",
    path: "/v1/peer/questions/{id}",
    pathParams: { id: "The question's id." },
    summary: "A non-blocking question's status and answer, polled by the relay that asked it",
    responses: [
      ok("The question.", output("PeerQuestionStatus", PeerQuestionStatusSchema)),
      gone("No such question for this invite's relay"),
    ],
  },
]);

/** Components the peer surface references by name. */
export const peerComponents = { PeerPreflightResult: PeerPreflightResultSchema } as const;
