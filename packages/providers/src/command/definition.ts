import { err, ok, type Result } from "@oar/core";
import { COMMAND_PLACEHOLDERS, isPlaceholder, placeholdersIn } from "./placeholders";

/**
 * A command provider as the owner defines it in `settings.providers.<id>` (DESIGN §4): the argv
 * (program first), its models (the first is the default), and optionally efforts, a timeout and
 * a label.
 */
export interface CommandProviderDefinition {
  readonly command: readonly [program: string, ...args: string[]];
  readonly models: readonly string[];
  readonly efforts?: readonly string[];
  /** The turn's process group is killed past this; without it the relay's longest turn applies. */
  readonly timeoutSeconds?: number;
  readonly label?: string;
}

/** Ids of the providers the relay has itself or configures apart: no command provider takes them. */
export const RESERVED_PROVIDER_IDS = [
  "script",
  "external",
  "claude",
  "claude-api",
  "claude-cloud",
  "copilot",
  "grok",
  "deepseek",
] as const;

export const COMMAND_DEFINITION_FIELDS = ["command", "models", "efforts", "timeoutSeconds", "label"] as const;

export const MAX_COMMAND_ITEMS = 64;
export const MAX_COMMAND_MODELS = 50;
export const MAX_COMMAND_EFFORTS = 10;
export const MAX_COMMAND_TIMEOUT_SECONDS = 86_400;
export const MAX_COMMAND_LABEL_LENGTH = 80;

const PROVIDER_ID_RE = /^[a-z][a-z0-9_-]{0,39}$/;
const MODEL_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;
const FIELD_LIST = COMMAND_DEFINITION_FIELDS.join(", ");
const PLACEHOLDER_LIST = COMMAND_PLACEHOLDERS.map((name) => `{${name}}`).join(", ");

/** Whether a settings entry is a command definition at all: an object with a `command` key. */
export function isCommandEntry(entry: unknown): entry is Readonly<Record<string, unknown>> {
  return (
    typeof entry === "object" && entry !== null && !Array.isArray(entry) && Object.hasOwn(entry, "command")
  );
}

/**
 * Reads a command entry of `settings.providers` into its definition, or every problem it has, each
 * naming its field (`providers.lint.models: …`) and saying what is expected.
 */
export function parseCommandDefinition(
  id: string,
  entry: Readonly<Record<string, unknown>>,
): Result<CommandProviderDefinition, string[]> {
  const field = (name: string) => `providers.${id}.${name}`;
  const command = readCommand(entry.command, field("command"));
  const models = readModels(entry.models, field("models"));
  const efforts = entry.efforts === undefined ? ok(undefined) : readEfforts(entry.efforts, field("efforts"));
  const timeoutSeconds =
    entry.timeoutSeconds === undefined
      ? ok(undefined)
      : readTimeoutSeconds(entry.timeoutSeconds, field("timeoutSeconds"));
  const label = entry.label === undefined ? ok(undefined) : readLabel(entry.label, field("label"));
  const problems = [
    ...idProblems(id),
    ...[command, models, efforts, timeoutSeconds, label].flatMap((read) => (read.ok ? [] : read.error)),
    ...Object.keys(entry)
      .filter((key) => !(COMMAND_DEFINITION_FIELDS as readonly string[]).includes(key))
      .map((key) => `${field(key)}: unknown field; a command provider takes ${FIELD_LIST}`),
  ];
  if (problems.length > 0 || !command.ok || !models.ok || !efforts.ok || !timeoutSeconds.ok || !label.ok) {
    return err(problems);
  }
  return ok({
    command: command.value,
    models: models.value,
    ...(efforts.value === undefined ? {} : { efforts: efforts.value }),
    ...(timeoutSeconds.value === undefined ? {} : { timeoutSeconds: timeoutSeconds.value }),
    ...(label.value === undefined ? {} : { label: label.value }),
  });
}

export function idProblems(id: string, kind = "command"): string[] {
  if (!PROVIDER_ID_RE.test(id)) {
    return [
      `providers.${id}: a provider id is a lowercase letter followed by at most 39 lowercase letters, digits, "_" or "-"`,
    ];
  }
  if ((RESERVED_PROVIDER_IDS as readonly string[]).includes(id)) {
    return [
      `providers.${id}: "${id}" is a built-in provider id (${RESERVED_PROVIDER_IDS.join(", ")}); give the ${kind} provider another id`,
    ];
  }
  return [];
}

/** A short, printable account of a bad value for a problem message. */
export function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

export function isArgument(value: unknown): value is string {
  return typeof value === "string" && value !== "" && !value.includes("\0");
}

export function readCommand(
  value: unknown,
  field: string,
): Result<CommandProviderDefinition["command"], string[]> {
  if (!Array.isArray(value) || value.length === 0) {
    return err([
      `${field}: expected a non-empty list of strings, the program then its arguments, e.g. ["prog", "--model", "{model}"]`,
    ]);
  }
  if (value.length > MAX_COMMAND_ITEMS) {
    return err([`${field}: at most ${MAX_COMMAND_ITEMS} items (got ${value.length})`]);
  }
  const problems: string[] = [];
  value.forEach((item: unknown, index) => {
    if (!isArgument(item)) {
      problems.push(
        `${field}: item ${index + 1} must be a non-empty string without NUL bytes (got ${shown(item)})`,
      );
      return;
    }
    const names = placeholdersIn(item);
    if (index === 0) {
      if (names.length > 0) {
        problems.push(
          `${field}: the first item is the program and cannot hold a placeholder (got ${shown(item)})`,
        );
      }
      return;
    }
    for (const name of names.filter((found) => !isPlaceholder(found))) {
      problems.push(
        `${field}: unknown placeholder {${name}} in item ${index + 1} (${shown(item)}); the placeholders are ${PLACEHOLDER_LIST}`,
      );
    }
  });
  const [program, ...args] = value as string[];
  return problems.length > 0 || program === undefined ? err(problems) : ok([program, ...args]);
}

interface NameListRules {
  readonly min: number;
  readonly max: number;
  /** What the list is, for the problem of a value that is not one: `a list of model ids, …`. */
  readonly list: string;
  /** What each item must be: `a model id: …`. */
  readonly item: string;
  readonly valid: (item: unknown) => item is string;
}

/** A list of unique names (`models`, `efforts`), in the order given. */
function readNames(value: unknown, field: string, rules: NameListRules): Result<string[], string[]> {
  if (!Array.isArray(value) || value.length < rules.min) {
    return err([`${field}: expected ${rules.list}`]);
  }
  if (value.length > rules.max) {
    return err([`${field}: at most ${rules.max} items (got ${value.length})`]);
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  value.forEach((item: unknown, index) => {
    if (!rules.valid(item)) {
      problems.push(`${field}: item ${index + 1} must be ${rules.item} (got ${shown(item)})`);
    } else if (seen.has(item)) {
      problems.push(`${field}: ${shown(item)} is listed twice; each must be unique`);
    } else {
      seen.add(item);
    }
  });
  return problems.length > 0 ? err(problems) : ok([...seen]);
}

export function readModels(value: unknown, field: string): Result<string[], string[]> {
  return readNames(value, field, {
    min: 1,
    max: MAX_COMMAND_MODELS,
    list: 'a non-empty list of model ids, the first being the default, e.g. ["m1", "m2"]',
    item: 'a model id: 1–100 letters, digits, ".", "_", ":", "/" or "-", starting with a letter or digit',
    valid: (item): item is string => typeof item === "string" && MODEL_ID_RE.test(item),
  });
}

export function readEfforts(value: unknown, field: string): Result<string[], string[]> {
  return readNames(value, field, {
    min: 0,
    max: MAX_COMMAND_EFFORTS,
    list: 'a list of effort names, e.g. ["low", "high"]',
    item: "an effort name: a non-empty string without NUL bytes",
    valid: isArgument,
  });
}

export function readTimeoutSeconds(value: unknown, field: string): Result<number, string[]> {
  return typeof value === "number" &&
    Number.isInteger(value) &&
    value >= 1 &&
    value <= MAX_COMMAND_TIMEOUT_SECONDS
    ? ok(value)
    : err([
        `${field}: expected a whole number of seconds from 1 to ${MAX_COMMAND_TIMEOUT_SECONDS} (got ${shown(value)})`,
      ]);
}

export function readLabel(value: unknown, field: string): Result<string, string[]> {
  return typeof value === "string" && value.trim() !== "" && value.length <= MAX_COMMAND_LABEL_LENGTH
    ? ok(value)
    : err([
        `${field}: expected a non-empty text of at most ${MAX_COMMAND_LABEL_LENGTH} characters (got ${shown(value)})`,
      ]);
}
