import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecrets, NO_SECRETS_KEY, parseSecretsKey } from "./secrets.ts";

const key = crypto.randomBytes(32);

describe("credentials at rest", () => {
  it("seals and opens; the sealed bytes never hold the secret and differ each time", () => {
    const secrets = createSecrets(key);
    const a = secrets.seal("ef-api-key-123");
    const b = secrets.seal("ef-api-key-123");
    expect(a.equals(b)).toBe(false);
    expect(a.toString("latin1")).not.toContain("ef-api-key-123");
    expect(secrets.open(a)).toBe("ef-api-key-123");
  });

  it("refuses a tampered value and another key", () => {
    const sealed = createSecrets(key).seal("secret");
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => createSecrets(key).open(tampered)).toThrow();
    expect(() => createSecrets(crypto.randomBytes(32)).open(sealed)).toThrow();
  });

  it("refuses to store anything without a key", () => {
    const none = createSecrets(undefined);
    expect(none.available).toBe(false);
    expect(() => none.seal("secret")).toThrow(NO_SECRETS_KEY);
  });

  it("reads the key as 64 hex characters or base64 of 32 bytes, and nothing else", () => {
    expect(parseSecretsKey(key.toString("hex")).equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString("base64")).equals(key)).toBe(true);
    expect(() => parseSecretsKey("short")).toThrow(/32 bytes/);
  });
});
