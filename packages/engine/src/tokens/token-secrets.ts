import type { TokenSecrets } from "../ports/token-store";

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
