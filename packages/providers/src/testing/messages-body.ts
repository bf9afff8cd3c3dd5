import type { RecordedRequest } from "./fake-anthropic";

/** The parts of a Messages API request body the tests look at. */
export interface MessagesBody {
  readonly model: string;
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
  readonly tools?: readonly { readonly name: string }[];
}

export function bodyOf(request: RecordedRequest | undefined): MessagesBody {
  if (request === undefined) {
    throw new Error("the fake API got no such request");
  }
  return request.body as MessagesBody;
}

/** The request's conversation as one string, for "does it carry X" checks. */
export const conversationOf = (request: RecordedRequest | undefined) =>
  JSON.stringify(bodyOf(request).messages);

/** The tool_result blocks of the request's last message. */
export function toolResultsOf(
  request: RecordedRequest | undefined,
): { tool_use_id: string; content: unknown; is_error?: boolean }[] {
  const last = bodyOf(request).messages.at(-1);
  const content = Array.isArray(last?.content) ? (last.content as { type: string }[]) : [];
  return content.filter((block) => block.type === "tool_result") as never;
}
