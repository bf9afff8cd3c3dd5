import { APICallError } from "ai";
import type { ApiChatVendor } from "./api-chat-vendors";

const MAX_MESSAGE_CHARS = 500;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_MESSAGE_CHARS ? `${line.slice(0, MAX_MESSAGE_CHARS - 1)}…` : line;
}

/** The API's own message: its `{"error": {"message"}}` when it sent one, else what the client made of it. */
function apiMessage(error: APICallError): string {
  const data = error.data as { readonly error?: { readonly message?: unknown } } | undefined;
  const message = data?.error?.message;
  return oneLine(typeof message === "string" && message.trim() !== "" ? message : error.message);
}

/**
 * Why the turn failed, for its `error`: the vendor, the HTTP status and the API's message
 * (`Grok's API refused the request (401): Incorrect API key provided`), never a stack.
 */
export function apiErrorText(vendor: ApiChatVendor, baseUrl: string, error: unknown): string {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      return `${vendor.name}'s API could not be reached at ${baseUrl}: ${apiMessage(error)}`;
    }
    const what = status >= 500 ? "failed" : "refused the request";
    return `${vendor.name}'s API ${what} (${status}): ${apiMessage(error)}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `${vendor.name}'s API failed: ${oneLine(message)}`;
}
