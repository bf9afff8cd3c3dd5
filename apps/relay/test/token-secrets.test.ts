import { webCryptoSecrets } from "@oar/engine";
import { describe, expect, it } from "vitest";
import { nodeTokenSecrets } from "../src/token-secrets";

describe("token secrets (DESIGN §7)", () => {
  it("hashes a token as the engine's Web Crypto default does, so either finds the other's tokens", async () => {
    for (const kind of ["agent", "invite"] as const) {
      const token = nodeTokenSecrets.newToken(kind);
      expect(token).toMatch(new RegExp(`^oar_${kind}_[A-Za-z0-9_-]{43}$`));
      expect(await nodeTokenSecrets.hash(token)).toBe(await webCryptoSecrets.hash(token));
    }
    expect(webCryptoSecrets.newToken("agent")).toMatch(/^oar_agent_[A-Za-z0-9_-]{43}$/);
    expect(nodeTokenSecrets.newToken("agent")).not.toBe(nodeTokenSecrets.newToken("agent"));
  });
});
