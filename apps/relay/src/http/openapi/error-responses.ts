import { type ErrorCode, ErrorCodeSchema, ErrorEnvelopeSchema, errorCodeMeanings } from "@oar/schema";
import { codeToStatus } from "../errors";
import { type JsonSchema, responseSchema } from "./json-schema";

/** The codes one HTTP status carries, from the relay's one code → status table (errors.ts). */
export function codesWithStatus(status: number): ErrorCode[] {
  return ErrorCodeSchema.options.filter((code) => codeToStatus(code) === status);
}

/** The statuses the error envelope comes with, in order. */
export const ERROR_STATUSES = [...new Set(ErrorCodeSchema.options.map(codeToStatus))].sort((a, b) => a - b);

const codeTable = ErrorCodeSchema.options
  .map((code) => `- \`${code}\` (HTTP ${codeToStatus(code)}): ${errorCodeMeanings[code]}`)
  .join("\n");

/**
 * `ErrorEnvelope` (DESIGN §4, §6): every refusal of every surface. `x-error-codes` lists each code
 * with its HTTP status and meaning, for a client that maps them.
 */
export function errorEnvelopeComponent(): JsonSchema {
  return {
    ...responseSchema(ErrorEnvelopeSchema),
    description: `A refusal: \`ok: false\`, a \`code\` and an \`error\` message that says what to do. The codes:\n${codeTable}`,
    "x-error-codes": Object.fromEntries(
      ErrorCodeSchema.options.map((code) => [
        code,
        { status: codeToStatus(code), meaning: errorCodeMeanings[code] },
      ]),
    ),
  };
}

const REASON: Readonly<Record<number, string>> = {
  400: "A bad input: the message names the field and why. Nothing was done.",
  401: "The bearer token (or the cluster's secret) is missing or refused.",
  403: "Not allowed.",
  404: "No such thing (or no such route) on this relay.",
  409: "Not now: a limit or the thing's state is in the way.",
  422: "A name the relay does not know: a model, a group, a provider.",
  423: "The paired relay is locked in this conversation.",
  500: "A bug in the relay, logged with the requestId given.",
  501: "Not supported by the relay the call targets.",
  502: "A paired relay does not answer.",
  503: "The relay's database does not answer; nothing was changed. Retry.",
};

/** `components.responses`: one response per status, its `code` narrowed to that status's codes. */
export function errorResponseComponents(): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const status of ERROR_STATUSES) {
    responses[errorResponseName(status)] = {
      description: `${REASON[status] ?? "A refusal."} Codes: ${codesWithStatus(status).join(", ")}.`,
      content: {
        "application/json": {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/ErrorEnvelope" },
              { properties: { code: { enum: codesWithStatus(status) } } },
            ],
          },
        },
      },
    };
  }
  responses.Error = {
    description: "Any other refusal: the envelope, with the HTTP status of its code (see ErrorEnvelope).",
    content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
  };
  return responses;
}

export const errorResponseName = (status: number): string => `Error${status}`;
