import { z } from "zod";
import { ACTIONS, type Action } from "../actions/action-names";
import { actionArgsSchemas } from "../actions/registry";

/** A JSON Schema document, as z.toJSONSchema produces it. */
export type JsonSchema = Record<string, unknown>;

function argumentsJsonSchema(action: Action): JsonSchema {
  // "input": defaulted arguments are optional, which is what the agent may send.
  return z.toJSONSchema(actionArgsSchemas[action], { io: "input" }) as JsonSchema;
}

function buildActionJsonSchemas(): Record<Action, JsonSchema> {
  const schemas = {} as Record<Action, JsonSchema>;
  for (const action of ACTIONS) {
    schemas[action] = argumentsJsonSchema(action);
  }
  return schemas;
}

/** Each action's arguments as JSON Schema (from its zod schema), keyed by action. */
export const actionJsonSchemas: Record<Action, JsonSchema> = buildActionJsonSchemas();

interface Use {
  action: Action;
  schema: JsonSchema;
  required: boolean;
}

function collectUses(): Map<string, Use[]> {
  const uses = new Map<string, Use[]>();
  for (const action of ACTIONS) {
    const schema = actionJsonSchemas[action];
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      if (name === "action") {
        continue;
      }
      uses.set(name, [...(uses.get(name) ?? []), { action, schema: property, required: required.has(name) }]);
    }
  }
  return uses;
}

function withoutDocs(schema: JsonSchema): JsonSchema {
  const { description: _description, default: _default, ...rest } = schema;
  return rest;
}

const listed = (uses: readonly Use[]): string => uses.map((use) => use.action).join(", ");

function describeArgument(uses: readonly Use[]): string {
  const [first] = uses;
  const parts = [String(first?.schema.description ?? "")];
  for (const use of uses.slice(1)) {
    const text = use.schema.description;
    if (typeof text === "string" && !parts.includes(text)) {
      parts.push(`In ${use.action}: ${text}`);
    }
  }
  parts.push(`Taken by: ${listed(uses)}.`);
  const required = uses.filter((use) => use.required);
  if (required.length > 0) {
    parts.push(`Required by: ${listed(required)}.`);
  }
  const defaults = new Map<string, Use[]>();
  for (const use of uses.filter((use) => "default" in use.schema)) {
    const key = JSON.stringify(use.schema.default);
    defaults.set(key, [...(defaults.get(key) ?? []), use]);
  }
  for (const [value, withDefault] of defaults) {
    parts.push(`Default ${value} for: ${listed(withDefault)}.`);
  }
  return parts.filter((part) => part.length > 0).join(" ");
}

function combinedProperty(uses: readonly Use[]): JsonSchema {
  const shapes = [
    ...new Map(
      uses.map((use) => [JSON.stringify(withoutDocs(use.schema)), withoutDocs(use.schema)]),
    ).values(),
  ];
  const type = shapes.length === 1 && shapes[0] ? shapes[0] : { anyOf: shapes };
  return { ...type, description: describeArgument(uses) };
}

function buildInputJsonSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    action: {
      type: "string",
      enum: [...ACTIONS],
      description: "The action to run. Each argument's description says which actions take it.",
    },
  };
  for (const [name, uses] of collectUses()) {
    properties[name] = combinedProperty(uses);
  }
  return { type: "object", properties, required: ["action"] };
}

/**
 * The input schema of the MCP tool relay_tool: one top-level object (MCP and Claude's API take no
 * top-level oneOf) with `action` and every argument of every action. Exact per-action rules live
 * in parseCall, which also reports what an action ignored.
 */
export const relayToolInputJsonSchema: JsonSchema = buildInputJsonSchema();
