/** How tokens are made and kept (DESIGN §7): unguessable text, stored only as a hash. */
export interface TokenSecrets {
  /** A fresh random token; its prefix names its kind (`oar_agent_…`, `oar_invite_…`). */
  newToken(kind: "agent" | "invite"): string;
  /** What the store keeps of a token: its sha256, hex. A stolen database holds no usable token. */
  hash(token: string): Promise<string>;
}

const TOKEN_BYTES = 32;

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Tokens from the platform's Web Crypto: the same on every runtime the engine is embedded in. */
export const webCryptoSecrets: TokenSecrets = {
  newToken(kind) {
    return `oar_${kind}_${base64url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)))}`;
  },
  async hash(token) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
    return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  },
};
