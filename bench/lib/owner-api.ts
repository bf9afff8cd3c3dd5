/** A client of one relay's owner API that throws on any answer but 2xx, with its status and body. */
export interface OwnerApi {
  post(path: string, body: unknown): Promise<Record<string, unknown>>;
  get(path: string): Promise<Record<string, unknown>>;
}

export function ownerClient(base: string, token: string): OwnerApi {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${method} ${path}: ${response.status} ${text}`);
    }
    return JSON.parse(text) as Record<string, unknown>;
  };
  return {
    post: (path, body) => call("POST", path, body),
    get: (path) => call("GET", path),
  };
}

/** Runs `count` calls of `one`, `lanes` in flight, as a user's scripts would make them. */
export async function inParallel(
  count: number,
  one: (i: number) => Promise<unknown>,
  lanes = 8,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      await one(next++);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}
