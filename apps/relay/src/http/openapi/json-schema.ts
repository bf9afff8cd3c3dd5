import { z } from "zod";

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), as z.toJSONSchema writes it. */
export type JsonSchema = Record<string, unknown>;

type Io = "input" | "output";

/**
 * @oar/schema wraps request bodies in `storableBody`: `z.unknown()` (refined) piped into the real
 * schema. In "input" mode zod describes a pipe by its first half, which would document every
 * body as `{}`; the body must pass both halves, and the second is the one that says anything.
 */
function isStorableBodyPipe(schema: z.core.$ZodType): schema is z.core.$ZodPipe {
  const def = schema._zod.def;
  return def.type === "pipe" && (def as z.core.$ZodPipeDef).in._zod.def.type === "unknown";
}

function convert(schema: z.core.$ZodType, io: Io): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    override: ({ zodSchema, jsonSchema }) => {
      if (io === "input" && isStorableBodyPipe(zodSchema)) {
        const target = jsonSchema as JsonSchema;
        for (const key of Object.keys(target)) {
          delete target[key];
        }
        Object.assign(target, convert(zodSchema._zod.def.out, io));
      }
    },
  }) as JsonSchema;
  // The document's root carries the dialect; a `$defs` here would be resolved against the
  // OpenAPI document, not this schema, so a schema that needs one cannot be embedded as it is.
  const { $schema: _dialect, ...rest } = json;
  if ("$defs" in rest) {
    throw new Error("A schema with $defs (a recursive zod schema) cannot be embedded in the document.");
  }
  return rest;
}

/** What a client may send: defaulted fields optional (zod's input type). */
export function requestSchema(schema: z.core.$ZodType): JsonSchema {
  return convert(schema, "input");
}

/** What the relay answers: defaults applied, so those fields are always there (zod's output type). */
export function responseSchema(schema: z.core.$ZodType): JsonSchema {
  return convert(schema, "output");
}
