/** What a failure says, whatever was thrown: the message of an Error, else the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
