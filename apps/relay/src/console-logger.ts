import type { LogFields, Logger } from "@oar/core";

function line(level: string, message: string, fields?: LogFields): string {
  if (!fields || Object.keys(fields).length === 0) {
    return `[${level}] ${message}`;
  }
  const shown = Object.entries(fields).map(([key, value]) => {
    const text = value instanceof Error ? (value.stack ?? value.message) : JSON.stringify(value);
    return `${key}=${text}`;
  });
  return `[${level}] ${message} ${shown.join(" ")}`;
}

/** The relay process's log: warnings and errors on stderr, the rest on stdout; debug stays quiet. */
export const consoleLogger: Logger = {
  debug: () => {},
  info: (message, fields) => console.log(line("info", message, fields)),
  warn: (message, fields) => console.error(line("warn", message, fields)),
  error: (message, fields) => console.error(line("error", message, fields)),
};
