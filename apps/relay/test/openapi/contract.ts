import Ajv2020, { type ErrorObject } from "ajv/dist/2020";

const BASE = "https://relay.test/openapi.json";

interface ResponseObject {
  readonly $ref?: string;
  readonly content?: Record<string, { readonly schema?: unknown }>;
}

interface DocumentShape {
  readonly paths: Record<
    string,
    Record<string, { readonly responses: Record<string, ResponseObject>; readonly requestBody?: unknown }>
  >;
  readonly components: { readonly responses: Record<string, ResponseObject> };
}

/** A JSON Pointer segment (RFC 6901). */
const segment = (text: string) => text.replace(/~/g, "~0").replace(/\//g, "~1");

function formatsOf(document: unknown): Set<string> {
  const formats = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "format" && typeof inner === "string") {
          formats.add(inner);
        }
        visit(inner);
      }
    }
  };
  visit(document);
  return formats;
}

/**
 * Real responses checked against the served document with ajv (JSON Schema 2020-12, OpenAPI 3.1's
 * dialect). Each schema is reached by its JSON Pointer inside the whole document, so its
 * `#/components/schemas/…` references resolve as a client's would.
 */
export class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(private readonly document: DocumentShape) {
    // No format is checked (ajv-formats is not installed): each is accepted as it is, so the
    // check is of shapes, which is what the zod schemas fix.
    for (const format of formatsOf(document)) {
      this.ajv.addFormat(format, true);
    }
    this.ajv.addSchema({ ...document, $id: BASE });
  }

  /** The pointer to the schema of one response; a shared error response is followed to its component. */
  private responsePointer(method: string, path: string, status: number, mediaType: string): string {
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (operation === undefined) {
      throw new Error(`No operation ${method} ${path} in the document.`);
    }
    const key = String(status) in operation.responses ? String(status) : "default";
    const response = operation.responses[key];
    if (response === undefined) {
      throw new Error(`${method} ${path} documents no ${status} response.`);
    }
    let pointer = `/paths/${segment(path)}/${method.toLowerCase()}/responses/${key}`;
    let resolved = response;
    if (response.$ref !== undefined) {
      pointer = response.$ref.slice(1);
      const name = response.$ref.split("/").at(-1) ?? "";
      resolved = this.document.components.responses[name] ?? {};
    }
    if (resolved.content?.[mediaType]?.schema === undefined) {
      throw new Error(`${method} ${path} ${status} has no ${mediaType} schema.`);
    }
    return `${pointer}/content/${segment(mediaType)}/schema`;
  }

  private errorsAt(pointer: string, body: unknown): string[] {
    const validate = this.ajv.compile({ $ref: `${BASE}#${pointer}` });
    return validate(body) ? [] : (validate.errors ?? []).map(describe);
  }

  /** What is wrong with `body` as the documented response of that operation and status ([] = nothing). */
  responseErrors(
    request: { readonly method: string; readonly path: string },
    status: number,
    body: unknown,
    mediaType = "application/json",
  ): string[] {
    return this.errorsAt(this.responsePointer(request.method, request.path, status, mediaType), body);
  }

  /** What is wrong with `body` as the documented request body of that operation ([] = nothing). */
  requestErrors(request: { readonly method: string; readonly path: string }, body: unknown): string[] {
    const method = request.method.toLowerCase();
    if (this.document.paths[request.path]?.[method]?.requestBody === undefined) {
      throw new Error(`${request.method} ${request.path} documents no request body.`);
    }
    return this.errorsAt(
      `/paths/${segment(request.path)}/${method}/requestBody/content/application~1json/schema`,
      body,
    );
  }

  /** What is wrong with `value` as the named component schema. */
  componentErrors(name: string, value: unknown): string[] {
    return this.errorsAt(`/components/schemas/${segment(name)}`, value);
  }
}

function describe(error: ErrorObject): string {
  return `${error.instancePath || "(root)"} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`;
}
