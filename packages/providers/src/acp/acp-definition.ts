import { err, ok, type Result } from "@oar/core";
import {
  idProblems,
  readCommand,
  readLabel,
  readModels,
  readTimeoutSeconds,
  shown,
} from "../command/definition";

/**
 * An Agent Client Protocol agent as the owner defines it in `settings.providers.<id>` (DESIGN §5):
 * the argv that starts it speaking ACP on its stdio (`{model}`, `{effort}`, `{session}`, `{cwd}`
 * are filled as for a command provider), optionally its models (else what the agent offers), extra
 * environment, a turn timeout and a label.
 */
export interface AcpAgentDefinition {
  readonly acp: readonly [program: string, ...args: string[]];
  readonly models?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutSeconds?: number;
  readonly label?: string;
}

export const ACP_DEFINITION_FIELDS = ["acp", "models", "env", "timeoutSeconds", "label"] as const;

export const MAX_ACP_ENV_VARIABLES = 50;
export const MAX_ACP_ENV_VALUE_LENGTH = 4096;

const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const FIELD_LIST = ACP_DEFINITION_FIELDS.join(", ");

/** Whether a settings entry is an ACP agent's definition: an object with an `acp` key. */
export function isAcpEntry(entry: unknown): entry is Readonly<Record<string, unknown>> {
  return typeof entry === "object" && entry !== null && !Array.isArray(entry) && Object.hasOwn(entry, "acp");
}

/** Reads an `acp` entry into its definition, or every problem it has, each naming its field. */
export function parseAcpDefinition(
  id: string,
  entry: Readonly<Record<string, unknown>>,
): Result<AcpAgentDefinition, string[]> {
  const field = (name: string) => `providers.${id}.${name}`;
  const argv = readCommand(entry.acp, field("acp"));
  const models = entry.models === undefined ? ok(undefined) : readModels(entry.models, field("models"));
  const env = entry.env === undefined ? ok(undefined) : readEnv(entry.env, field("env"));
  const timeoutSeconds =
    entry.timeoutSeconds === undefined
      ? ok(undefined)
      : readTimeoutSeconds(entry.timeoutSeconds, field("timeoutSeconds"));
  const label = entry.label === undefined ? ok(undefined) : readLabel(entry.label, field("label"));
  const problems = [
    ...idProblems(id, "ACP"),
    ...[argv, models, env, timeoutSeconds, label].flatMap((read) => (read.ok ? [] : read.error)),
    ...Object.keys(entry)
      .filter((key) => !(ACP_DEFINITION_FIELDS as readonly string[]).includes(key))
      .map((key) => `${field(key)}: unknown field; an ACP agent takes ${FIELD_LIST}`),
  ];
  if (problems.length > 0 || !argv.ok || !models.ok || !env.ok || !timeoutSeconds.ok || !label.ok) {
    return err(problems);
  }
  return ok({
    acp: argv.value,
    ...(models.value === undefined ? {} : { models: models.value }),
    ...(env.value === undefined ? {} : { env: env.value }),
    ...(timeoutSeconds.value === undefined ? {} : { timeoutSeconds: timeoutSeconds.value }),
    ...(label.value === undefined ? {} : { label: label.value }),
  });
}

function readEnv(value: unknown, field: string): Result<Record<string, string>, string[]> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return err([`${field}: expected an object of variable names to texts, e.g. {"GEMINI_API_KEY": "…"}`]);
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_ACP_ENV_VARIABLES) {
    return err([`${field}: at most ${MAX_ACP_ENV_VARIABLES} variables (got ${entries.length})`]);
  }
  const problems = entries.flatMap(([name, text]) => {
    if (!ENV_NAME_RE.test(name)) {
      return [
        `${field}: ${shown(name)} is not a variable name (letters, digits and "_", not starting with a digit)`,
      ];
    }
    if (typeof text !== "string" || text.includes("\0") || text.length > MAX_ACP_ENV_VALUE_LENGTH) {
      return [
        `${field}.${name}: expected a text of at most ${MAX_ACP_ENV_VALUE_LENGTH} characters without NUL bytes (got ${shown(text)})`,
      ];
    }
    return [];
  });
  return problems.length > 0 ? err(problems) : ok(Object.fromEntries(entries) as Record<string, string>);
}
