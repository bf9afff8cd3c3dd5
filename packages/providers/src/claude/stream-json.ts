/**
 * Splits text that arrives in chunks into whole lines and parses each as JSON; a line cut
 * between chunks waits for its end. Lines that are not JSON (a warning the CLI prints) are
 * handed to `onOther`.
 */
export function createJsonLineReader(handlers: {
  readonly onJson: (value: unknown) => void;
  readonly onOther?: (line: string) => void;
}): { push(chunk: string): void; end(): void } {
  let pending = "";
  const take = (line: string) => {
    const trimmed = line.trim();
    if (trimmed === "") {
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      handlers.onOther?.(trimmed);
      return;
    }
    handlers.onJson(value);
  };
  return {
    push(chunk) {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        take(line);
      }
    },
    end() {
      take(pending);
      pending = "";
    },
  };
}
