import { describe, expect, it } from "vitest";
import { newNonce, withScriptHashes } from "./helmet.ts";

describe("CSP nonces and hashes", () => {
  it("draws every nonce afresh: 16 random bytes, never the same twice across refills of the pool", () => {
    const nonces = Array.from({ length: 1000 }, newNonce); // about four refills
    expect(new Set(nonces).size).toBe(1000);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });

  it("puts a copy's script hashes where the nonce was, and nothing when it has none", () => {
    const csp = "default-src 'self';script-src 'self' 'nonce-abc==' https://tags.example;style-src 'self'";
    expect(withScriptHashes(csp, ["'sha256-A'", "'sha256-B'"])).toBe(
      "default-src 'self';script-src 'self' 'sha256-A' 'sha256-B' https://tags.example;style-src 'self'",
    );
    expect(withScriptHashes(csp, [])).toBe(
      "default-src 'self';script-src 'self' https://tags.example;style-src 'self'",
    );
  });
});
