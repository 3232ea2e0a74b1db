import { describe, expect, it } from "vitest";
import { signWebhook } from "./webhook-signature";

/** Checks `v1,<base64>` against an HMAC-SHA256 over `${id}.${timestamp}.${body}` with `key`. */
async function verifies(headers: Record<string, string>, key: Uint8Array, body: string): Promise<boolean> {
  const signature = headers["webhook-signature"]!;
  expect(signature.startsWith("v1,")).toBe(true);
  const mac = Uint8Array.from(atob(signature.slice(3)), (character) => character.charCodeAt(0));
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const signed = new TextEncoder().encode(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`);
  return crypto.subtle.verify("HMAC", cryptoKey, mac, signed);
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks reference vector for a whsec_ secret", async () => {
    const headers = await signWebhook(
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      1614265330,
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    });
  });

  it("signs with the UTF-8 bytes of any other secret", async () => {
    const secret = "observer-secret-\u00e9\u2713-0123";
    const body = '{"d1":{"value":"temp\u00e9rature \u2713"}}';
    const headers = await signWebhook(secret, "msg_1", 1700000000, body);
    expect(headers["webhook-id"]).toBe("msg_1");
    expect(headers["webhook-timestamp"]).toBe("1700000000");
    expect(await verifies(headers, utf8(secret), body)).toBe(true);
    expect(await verifies(headers, utf8(secret), `${body} `)).toBe(false);
    expect(await verifies(headers, utf8("observer-secret-other-0123"), body)).toBe(false);
  });

  it("takes a whsec_ secret whose rest is not base64 as text, prefix included", async () => {
    const secret = "whsec_not*base64*at-all!";
    const headers = await signWebhook(secret, "msg_2", 1700000001, "body");
    expect(await verifies(headers, utf8(secret), "body")).toBe(true);
  });

  it("signs the id and the timestamp, not only the body", async () => {
    const secret = "a-plain-secret-of-32-characters!";
    const signatures = await Promise.all([
      signWebhook(secret, "msg_1", 1700000000, "body"),
      signWebhook(secret, "msg_2", 1700000000, "body"),
      signWebhook(secret, "msg_1", 1700000001, "body"),
    ]);
    expect(new Set(signatures.map((headers) => headers["webhook-signature"])).size).toBe(3);
    for (const headers of signatures) expect(await verifies(headers, utf8(secret), "body")).toBe(true);
  });
});
