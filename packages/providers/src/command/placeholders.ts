/** What a command provider's argv may hold; each is filled per turn (DESIGN §5). */
export const COMMAND_PLACEHOLDERS = ["model", "effort", "session", "cwd"] as const;

export type CommandPlaceholder = (typeof COMMAND_PLACEHOLDERS)[number];

export type PlaceholderValues = Readonly<Record<CommandPlaceholder, string>>;

// `{word}` only, so JSON in an argument stays literal. Any other `{word}` is refused by the check
// (a typo like `{modle}` would otherwise reach the program verbatim); that includes a shell's
// `${VAR}`, which is written `$VAR` instead.
const PLACEHOLDER_RE = /\{(\w+)\}/g;

export function isPlaceholder(name: string): name is CommandPlaceholder {
  return (COMMAND_PLACEHOLDERS as readonly string[]).includes(name);
}

/** The `{word}`s of an argv item, known or not, in the order they appear. */
export function placeholdersIn(item: string): string[] {
  return [...item.matchAll(PLACEHOLDER_RE)].map((match) => match[1] ?? "");
}

/**
 * Fills every placeholder of each item, inside an item too (`--model={model}`). One pass per item:
 * a value that itself looks like `{model}` is left as it is, not filled again.
 */
export function fillPlaceholders(items: readonly string[], values: PlaceholderValues): string[] {
  return items.map((item) =>
    item.replace(PLACEHOLDER_RE, (whole, name: string) => (isPlaceholder(name) ? values[name] : whole)),
  );
}
