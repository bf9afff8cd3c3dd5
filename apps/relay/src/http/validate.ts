import { RelayError } from "@oar/core";
import type { Context } from "hono";
import type { z } from "zod";
import { nodeBodyText } from "./node-request";

function fieldOf(path: readonly PropertyKey[]): string {
  return path.length === 0
    ? "body"
    : path
        .map((key, index) =>
          typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`,
        )
        .join("");
}

/** `model: Too big: expected string to have <=200 characters`: each problem names its field. */
export function issuesMessage(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) =>
      issue.code === "unrecognized_keys"
        ? `${fieldOf(issue.path)} does not take: ${issue.keys.join(", ")}`
        : `${fieldOf(issue.path)}: ${issue.message}`,
    )
    .join("; ");
}

/**
 * The request body as JSON; anything else is REMOTE_RELAY_INVALID_INPUT. `empty` stands for a
 * body that is not there (an owner POST whose fields are all optional may send none).
 */
export async function readJson(c: Context, options: { readonly empty?: unknown } = {}): Promise<unknown> {
  const node = c.get("nodeRequest");
  const text = node === undefined ? await c.req.text() : await nodeBodyText(node.incoming);
  if (text.trim() === "" && options.empty !== undefined) {
    return options.empty;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      text.trim() === "" ? "The request needs a JSON body." : "The request body is not valid JSON.",
    );
  }
}

/** Validates a value with a shared schema (@oar/schema); a miss names the field and why. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new RelayError("REMOTE_RELAY_INVALID_INPUT", issuesMessage(parsed.error.issues));
  }
  return parsed.data;
}

/** readJson + parseWith; a missing body is validated as `{}`, so the schema names what is required. */
export async function readBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
): Promise<z.infer<Schema>> {
  return parseWith(schema, await readJson(c, { empty: {} }));
}
