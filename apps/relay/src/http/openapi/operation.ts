import type { z } from "zod";
import type { JsonSchema } from "./json-schema";

/** The surfaces of DESIGN §4, one tag each. */
export type Tag = "health" | "agent" | "owner" | "peer" | "cluster" | "console";

/** Which credential a route takes: the three token kinds (DESIGN §7), the cluster's secret, or none. */
export type Auth = "owner" | "agent" | "peer" | "cluster" | "none";

export type Method = "get" | "post" | "patch" | "delete";

/**
 * A schema of the document: a zod schema shown as a named component (`input`: what a client may
 * send; `output`: what the relay answers), a component written elsewhere in the document, or a
 * JSON Schema inline.
 */
export type SchemaSource =
  | {
      readonly kind: "zod";
      readonly name: string;
      readonly zod: z.core.$ZodType;
      readonly io: "input" | "output";
    }
  | { readonly kind: "component"; readonly name: string }
  | { readonly kind: "inline"; readonly json: JsonSchema };

export const input = (name: string, zod: z.core.$ZodType): SchemaSource => ({
  kind: "zod",
  name,
  zod,
  io: "input",
});
export const output = (name: string, zod: z.core.$ZodType): SchemaSource => ({
  kind: "zod",
  name,
  zod,
  io: "output",
});
export const component = (name: string): SchemaSource => ({ kind: "component", name });
export const inline = (json: JsonSchema): SchemaSource => ({ kind: "inline", json });

/** One response body; `mediaType` defaults to application/json. */
export interface Body {
  readonly schema: SchemaSource;
  readonly mediaType?: string;
  /** OpenAPI `x-` extensions of the media type (the SSE event's schema). */
  readonly extensions?: Readonly<Record<`x-${string}`, unknown>>;
}

export interface ResponseSpec {
  readonly status: number;
  readonly description: string;
  /** None: the response has no body. */
  readonly bodies?: readonly Body[];
  readonly headers?: Readonly<Record<string, { readonly description: string }>>;
}

export interface Operation {
  readonly operationId: string;
  readonly method: Method;
  /** OpenAPI form: `/v1/owner/sessions/{id}`. */
  readonly path: string;
  readonly tag: Tag;
  readonly auth: Auth;
  readonly summary: string;
  readonly description?: string;
  readonly externalDocs?: { readonly url: string; readonly description?: string };
  /** Each `{name}` of the path: what it names. */
  readonly pathParams?: Readonly<Record<string, string>>;
  /** The zod schema the route parses its query string with. */
  readonly query?: z.core.$ZodType;
  readonly headerParams?: readonly { readonly name: string; readonly description: string }[];
  readonly body?: { readonly schema: SchemaSource; readonly required: boolean; readonly mediaType?: string };
  /** The answers other than the error envelope's, which the document adds from `auth` and the route's inputs. */
  readonly responses: readonly ResponseSpec[];
  /**
   * Error statuses the route answers besides those implied by `auth` and its inputs
   * (401 for a credential, 400 for a body, query or path parameter, 404 for a path parameter,
   * 503 for a route that reads the database).
   */
  readonly errors?: readonly number[];
  /** False for the routes that answer without the database: no 503 (default true with `auth`). */
  readonly readsDatabase?: boolean;
}

/** A 200 with a JSON body. */
export function ok(description: string, schema: SchemaSource): ResponseSpec {
  return { status: 200, description, bodies: [{ schema }] };
}

/** An operation of a surface whose tag and credential are given once for all its routes. */
export type OperationOn = Omit<Operation, "tag" | "auth">;

export function onSurface(
  surface: { readonly tag: Tag; readonly auth: Auth },
  operations: readonly OperationOn[],
): Operation[] {
  return operations.map((operation) => ({ ...operation, ...surface }));
}
