/** A command line split into its positional arguments, `--name value` flags and bare `--switch`es. */
export interface BenchFlags {
  readonly positional: readonly string[];
  readonly values: ReadonlyMap<string, string>;
  readonly switches: ReadonlySet<string>;
}

/**
 * Splits `args` by what the bench declares: flags that take a value and switches that do not.
 * Positional arguments keep their order, so a bench's existing `pnpm bench:x 100 60` still reads
 * the same with flags anywhere around it. Returns the complaint for anything undeclared.
 */
export function parseBenchFlags(
  args: readonly string[],
  declared: { readonly values?: readonly string[]; readonly switches?: readonly string[] },
): BenchFlags | string {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (!arg.startsWith("--")) {
      positional.push(arg);
    } else if (declared.values?.includes(arg)) {
      const value = args[++i];
      if (value === undefined) {
        return `${arg} needs a value`;
      }
      values.set(arg, value);
    } else if (declared.switches?.includes(arg)) {
      switches.add(arg);
    } else {
      return `unknown flag ${arg}`;
    }
  }
  return { positional, values, switches };
}

/** `--processes N`: undefined when absent (the bench's single process, as before), else N ≥ 1. */
export function processesFlag(flags: BenchFlags): number | undefined | string {
  const text = flags.values.get("--processes");
  if (text === undefined) {
    return undefined;
  }
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : `--processes takes a whole number ≥ 1, not "${text}"`;
}
