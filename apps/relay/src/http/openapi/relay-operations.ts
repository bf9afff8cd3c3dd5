import { HealthzSchema, HealthzUnavailableSchema } from "@oar/schema";
import { ClusterCallSchema } from "../routes/cluster";
import { inline, input, type Operation, ok, output } from "./operation";
import { ClusterReplySchema } from "./response-schemas";

/** The relay about itself: GET /healthz and GET /openapi.json with no token, GET /metrics with the owner's. */
export const healthOperations: readonly Operation[] = [
  {
    operationId: "healthz",
    method: "get",
    path: "/healthz",
    tag: "health",
    auth: "none",
    summary: "Liveness, and whether the database answers",
    readsDatabase: false,
    responses: [
      ok("The relay runs and its database answers.", output("Healthz", HealthzSchema)),
      {
        status: 503,
        description: "The relay runs but its database does not answer.",
        bodies: [{ schema: output("HealthzUnavailable", HealthzUnavailableSchema) }],
      },
    ],
  },
  {
    operationId: "openApiDocument",
    method: "get",
    path: "/openapi.json",
    tag: "health",
    auth: "none",
    summary: "This document: the relay's HTTP contract, generated from the schemas its routes validate with",
    readsDatabase: false,
    responses: [
      ok("The OpenAPI 3.1 document.", inline({ type: "object", required: ["openapi", "info", "paths"] })),
      {
        status: 304,
        description: "The document is the one the client holds (If-None-Match matched its ETag).",
      },
    ],
  },
  {
    operationId: "metrics",
    method: "get",
    path: "/metrics",
    tag: "health",
    auth: "owner",
    summary: "The relay's metrics, in Prometheus' text exposition format",
    // Whether a scrape answers 503 while the database is away is not promised; `default` covers it.
    readsDatabase: false,
    responses: [
      {
        status: 200,
        description: "The exposition text (`text/plain; version=0.0.4`).",
        bodies: [{ mediaType: "text/plain", schema: inline({ type: "string" }) }],
      },
    ],
  },
];

const consoleFile = { type: "string", description: "The file's text." };

/** The owner's console: static files that use only the owner API (the owner types the token in). */
export const consoleOperations: readonly Operation[] = [
  {
    operationId: "consolePage",
    method: "get",
    path: "/",
    tag: "console",
    auth: "none",
    summary: "The owner's console",
    readsDatabase: false,
    errors: [404],
    responses: [
      {
        status: 200,
        description: "Its page.",
        bodies: [{ mediaType: "text/html", schema: inline(consoleFile) }],
      },
    ],
  },
  {
    operationId: "consoleFile",
    method: "get",
    path: "/console/{file}",
    tag: "console",
    auth: "none",
    pathParams: { file: "A file of the console (`app.js`, `console.css`…)." },
    summary: "A script or style sheet of the console",
    readsDatabase: false,
    responses: [
      {
        status: 200,
        description: "The file.",
        bodies: [
          { mediaType: "text/javascript", schema: inline(consoleFile) },
          { mediaType: "text/css", schema: inline(consoleFile) },
        ],
      },
    ],
  },
];

/** POST /v1/cluster: the processes of one relay's cluster (DESIGN §9), never a client. */
export const clusterOperations: readonly Operation[] = [
  {
    operationId: "clusterCall",
    method: "post",
    path: "/v1/cluster",
    tag: "cluster",
    auth: "cluster",
    summary: "Work another process of this relay's cluster asks of the process that runs it",
    description:
      "Only with the cluster's secret, which lives in the relay's database; on one process with the embedded database there is none and every call is refused with 401.",
    body: { required: true, schema: input("ClusterCall", ClusterCallSchema) },
    responses: [ok("What the target process answered.", output("ClusterReply", ClusterReplySchema))],
  },
];
