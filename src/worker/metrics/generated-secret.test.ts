import { afterEach, describe, expect, it, vi } from "vitest";
import { generateSecret, resolveSecret } from "./generated-secret";

const decodedLength = (secret: string) => atob(secret.slice("whsec_".length)).length;

describe("generateSecret", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("writes 24 random bytes as whsec_ and their base64", () => {
    vi.spyOn(crypto, "getRandomValues").mockImplementation((array) => {
      (array as Uint8Array).forEach((_, index, bytes) => {
        bytes[index] = index;
      });
      return array;
    });
    expect(generateSecret()).toBe("whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX");
  });

  it("makes a different secret each time, each decoding to 24 bytes", () => {
    const secrets = Array.from({ length: 20 }, generateSecret);
    expect(new Set(secrets).size).toBe(20);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(decodedLength(secret)).toBe(24);
    }
  });
});

describe("resolveSecret", () => {
  it('replaces "generate" by a new secret', () => {
    const secret = resolveSecret("generate");
    expect(secret).toMatch(/^whsec_/);
    expect(decodedLength(secret!)).toBe(24);
  });

  it("keeps a secret of the observer's own, and no secret", () => {
    expect(resolveSecret("my-own-secret-0123")).toBe("my-own-secret-0123");
    expect(resolveSecret(undefined)).toBeUndefined();
  });
});
