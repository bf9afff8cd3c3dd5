import { agentOperations } from "./agent-operations";
import { errorEnvelopeComponent, errorResponseComponents, errorResponseName } from "./error-responses";
import { type JsonSchema, requestSchema, responseSchema } from "./json-schema";
import type { Body, Operation, ResponseSpec, SchemaSource } from "./operation";
import { ownerComponents, ownerOperations } from "./owner-operations";
import { peerComponents, peerOperations } from "./peer-operations";
import { clusterOperations, consoleOperations, healthOperations } from "./relay-operations";
import { relayToolComponents } from "./relay-tool";
import { securityOf, securitySchemes } from "./security";

/** Every route the relay serves, as the document lists them. */
export const OPERATIONS: readonly Operation[] = [
  ...healthOperations,
  ...agentOperations,
  ...ownerOperations,
  ...peerOperations,
  ...clusterOperations,
  ...consoleOperations,
];

const TAGS = [
  {
    name: "health",
    description: "The relay about itself: liveness and this document (no token), metrics (the owner token).",
  },
  {
    name: "agent",
    description:
      "What an agent calls as its session (bearer: that session's agent token): MCP and relay_tool.",
  },
  { name: "owner", description: "The owner API (bearer: the owner token), which the console uses." },
  { name: "peer", description: "What a paired relay calls (bearer: an invite this relay issued)." },
  { name: "cluster", description: "Between the processes of one relay's cluster (the cluster's secret)." },
  {
    name: "console",
    description: "The owner's console: static files. No token; the page asks for the owner's.",
  },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `components.schemas`, filled as operations name their schemas; one name, one schema. */
class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  // What each name was made from: the same source again is the same component, another is a mistake.
  private readonly sources = new Map<string, unknown>();

  add(name: string, schema: JsonSchema, source: unknown = schema): void {
    const known = this.sources.get(name);
    if (known !== undefined && known !== source) {
      throw new Error(`Two schemas are named ${name} in the OpenAPI document.`);
    }
    this.sources.set(name, source);
    this.schemas[name] ??= schema;
  }

  /** The schema to put where `source` is used: a `$ref` to its component, or the JSON inline. */
  use(source: SchemaSource): JsonSchema {
    switch (source.kind) {
      case "zod": {
        const known = this.sources.get(source.name) as SchemaSource | undefined;
        const same = known?.kind === "zod" && known.zod === source.zod && known.io === source.io;
        if (!same) {
          const schema = source.io === "input" ? requestSchema(source.zod) : responseSchema(source.zod);
          this.add(source.name, schema, source);
        }
        return ref(source.name);
      }
      case "component":
        return ref(source.name);
      case "inline":
        return source.json;
    }
  }
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? "");
}

function parameters(operation: Operation): JsonSchema[] {
  const names = pathParamNames(operation.path);
  const described = Object.keys(operation.pathParams ?? {});
  if (names.join() !== described.join()) {
    throw new Error(`${operation.operationId}: describe the path parameters ${names.join(", ")}.`);
  }
  const list: JsonSchema[] = names.map((name) => ({
    name,
    in: "path",
    required: true,
    description: operation.pathParams?.[name],
    schema: { type: "string", minLength: 1 },
  }));
  if (operation.query !== undefined) {
    const query = requestSchema(operation.query);
    const required = new Set((query.required ?? []) as string[]);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...rest } = schema;
      list.push({
        name,
        in: "query",
        required: required.has(name),
        ...(description === undefined ? {} : { description }),
        schema: rest,
      });
    }
  }
  for (const header of operation.headerParams ?? []) {
    list.push({
      name: header.name,
      in: "header",
      required: false,
      description: header.description,
      schema: { type: "string" },
    });
  }
  return list;
}

function content(bodies: readonly Body[], components: SchemaComponents): JsonSchema {
  return Object.fromEntries(
    bodies.map((body) => [
      body.mediaType ?? "application/json",
      { schema: components.use(body.schema), ...body.extensions },
    ]),
  );
}

function response(spec: ResponseSpec, components: SchemaComponents): JsonSchema {
  return {
    description: spec.description,
    ...(spec.headers === undefined
      ? {}
      : {
          headers: Object.fromEntries(
            Object.entries(spec.headers).map(([name, header]) => [
              name,
              { description: header.description, schema: { type: "string" } },
            ]),
          ),
        }),
    ...(spec.bodies === undefined ? {} : { content: content(spec.bodies, components) }),
  };
}

/**
 * The error statuses a route answers with the envelope, from what it takes: a credential (401), an
 * input (400, and the refusal of a NUL in the URL), an id in the path (404, or 410 on the peer
 * surface, which the route declares itself), the database (503).
 */
function errorStatuses(operation: Operation): number[] {
  const declared = new Set(operation.responses.map((spec) => spec.status));
  const hasPathParams = pathParamNames(operation.path).length > 0;
  const statuses = new Set(operation.errors ?? []);
  if (operation.auth !== "none") {
    statuses.add(401);
  }
  if (operation.body !== undefined || operation.query !== undefined || hasPathParams) {
    statuses.add(400);
  }
  if (hasPathParams && !declared.has(410)) {
    statuses.add(404);
  }
  if (operation.readsDatabase ?? operation.auth !== "none") {
    statuses.add(503);
  }
  return [...statuses].filter((status) => !declared.has(status));
}

function operationObject(operation: Operation, components: SchemaComponents): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  const entries: [number, JsonSchema][] = [
    ...operation.responses.map((spec): [number, JsonSchema] => [spec.status, response(spec, components)]),
    ...errorStatuses(operation).map((status): [number, JsonSchema] => [
      status,
      { $ref: `#/components/responses/${errorResponseName(status)}` },
    ]),
  ];
  for (const [status, value] of entries.sort(([a], [b]) => a - b)) {
    responses[String(status)] = value;
  }
  if (operation.auth !== "none") {
    responses.default = { $ref: "#/components/responses/Error" };
  }
  const params = parameters(operation);
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    ...(operation.externalDocs === undefined ? {} : { externalDocs: operation.externalDocs }),
    security: securityOf(operation.auth),
    ...(params.length === 0 ? {} : { parameters: params }),
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: {
            required: operation.body.required,
            content: {
              [operation.body.mediaType ?? "application/json"]: {
                schema: components.use(operation.body.schema),
              },
            },
          },
        }),
    responses,
  };
}

/**
 * The relay's HTTP contract (DESIGN §4) as an OpenAPI 3.1 document: every route of OPERATIONS,
 * each schema converted from the zod schema the route validates with (z.toJSONSchema, JSON
 * Schema 2020-12, OpenAPI 3.1's dialect).
 */
export function buildOpenApiDocument(info: { readonly version: string }): JsonSchema {
  const components = new SchemaComponents();
  components.add("ErrorEnvelope", errorEnvelopeComponent());
  for (const [name, schema] of Object.entries(relayToolComponents("ErrorEnvelope"))) {
    components.add(name, schema);
  }
  for (const [name, zod] of Object.entries({ ...ownerComponents, ...peerComponents })) {
    components.use({ kind: "zod", name, zod, io: "output" });
  }
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of OPERATIONS) {
    const item = paths[operation.path] ?? {};
    paths[operation.path] = item;
    if (item[operation.method] !== undefined) {
      throw new Error(`${operation.method.toUpperCase()} ${operation.path} is listed twice.`);
    }
    item[operation.method] = operationObject(operation, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "OAR relay",
      version: info.version,
      description:
        "A self-hostable relay for AI coding-agent sessions: the agent surface (MCP and relay_tool), the owner API, the peer protocol between paired relays. All bodies are JSON; every refusal is the error envelope (`ErrorEnvelope`) with the HTTP status of its code.",
      license: { name: "MIT", identifier: "MIT" },
    },
    tags: TAGS,
    paths,
    components: { schemas: components.schemas, responses: errorResponseComponents(), securitySchemes },
  };
}
