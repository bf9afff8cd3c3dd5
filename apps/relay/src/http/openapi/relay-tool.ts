import { ACTIONS, type Action, actionArgsSchemas, actionResultSchemas } from "@oar/schema";
import { type JsonSchema, requestSchema, responseSchema } from "./json-schema";

/** `read_task_output` → `ReadTaskOutput`: the components' names of one action. */
function pascal(action: Action): string {
  return action
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

export const argsSchemaName = (action: Action): string => `${pascal(action)}Args`;
export const resultSchemaName = (action: Action): string => `${pascal(action)}Result`;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The components of relay_tool (DESIGN §4 agent surface): each of the 23 actions' arguments as an
 * agent may write them (defaults optional) and its success result, then the call as a `oneOf` on
 * `action` and any result as an `anyOf` (two actions' results may share a shape, so not `oneOf`).
 */
export function relayToolComponents(errorEnvelope: string): Record<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  for (const action of ACTIONS) {
    components[argsSchemaName(action)] = requestSchema(actionArgsSchemas[action]);
    components[resultSchemaName(action)] = responseSchema(actionResultSchemas[action]);
  }
  components.RelayToolCall = {
    description:
      "One relay_tool call: an action and its arguments. The relay parses it itself: an argument an action does not take is ignored and named in the result's `ignored` (create_session and update_session refuse it), and a call that does not parse is answered `ok: false` with REMOTE_RELAY_INVALID_INPUT.",
    oneOf: ACTIONS.map((action) => ref(argsSchemaName(action))),
    discriminator: {
      propertyName: "action",
      mapping: Object.fromEntries(
        ACTIONS.map((action) => [action, `#/components/schemas/${argsSchemaName(action)}`]),
      ),
    },
  };
  components.RelayToolResult = {
    description:
      "The result of a call: its action's success result (`ok: true`), or a refusal (`ok: false`, the error envelope).",
    anyOf: [...ACTIONS.map((action) => ref(resultSchemaName(action))), ref(errorEnvelope)],
  };
  return components;
}
