/**
 * A reader of Prometheus' text exposition format (0.0.4), as a scraper reads it, written apart
 * from prom-client so the test checks the text the relay serves, not the library's own view.
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  readonly samples: readonly Sample[];
  /** Each family's `# HELP` text. */
  readonly help: ReadonlyMap<string, string>;
  /** Each family's `# TYPE`. */
  readonly types: ReadonlyMap<string, string>;
}

const SAMPLE = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([A-Za-z_]\w*)="((?:[^"\\]|\\.)*)"/g;

function unescapeLabel(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

function number(text: string): number {
  if (text === "+Inf") {
    return Number.POSITIVE_INFINITY;
  }
  if (text === "-Inf") {
    return Number.NEGATIVE_INFINITY;
  }
  return Number(text);
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const help = new Map<string, string>();
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") {
      continue;
    }
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment) {
      (comment[1] === "HELP" ? help : types).set(comment[2] ?? "", comment[3] ?? "");
      continue;
    }
    if (line.startsWith("#")) {
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) {
      throw new Error(`not a sample line: ${line}`);
    }
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) {
      labels[key ?? ""] = unescapeLabel(value ?? "");
    }
    samples.push({ name: match[1] ?? "", labels, value: number(match[3] ?? "") });
  }
  return { samples, help, types };
}

/** The samples named `name` whose labels include `labels`. */
export function samplesOf(
  exposition: Exposition,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): Sample[] {
  return exposition.samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The one sample's value (0 when there is none yet: a counter not touched is absent). */
export function sampleValue(
  exposition: Exposition,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  const found = samplesOf(exposition, name, labels);
  if (found.length > 1) {
    throw new Error(`${found.length} samples ${name} ${JSON.stringify(labels)}`);
  }
  return found[0]?.value ?? 0;
}
