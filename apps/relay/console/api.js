// The owner API (DESIGN §4). The token lives in this browser only and travels only in the
// Authorization header, never in a URL.

const TOKEN_KEY = "oar.ownerToken";

export const ownerToken = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (token) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const refusedListeners = new Set();

/** Called when the relay refuses the token (it changed, or the relay's data was reset). */
export function onTokenRefused(listener) {
  refusedListeners.add(listener);
}

export function authHeaders(token = ownerToken.get()) {
  return { Authorization: `Bearer ${token}` };
}

/** One owner call: the parsed JSON, or an ApiError with the relay's code and message. */
export async function api(method, path, body, token) {
  const headers = authHeaders(token);
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(`/v1/owner${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "NETWORK", "The relay does not answer; check that it is running.");
  }
  const text = await response.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's page, say; its first words are the message.
  }
  if (!response.ok) {
    const error = new ApiError(
      response.status,
      json?.code ?? `HTTP_${response.status}`,
      json?.error ?? (text.slice(0, 200) || response.statusText),
    );
    if (response.status === 401 && token === undefined) {
      for (const listener of refusedListeners) {
        listener(error);
      }
    }
    throw error;
  }
  return json;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);
export const patch = (path, body) => api("PATCH", path, body);
export const del = (path) => api("DELETE", path);
