import { describe, expect, it } from "vitest";
import { utf8, verifiesSignature } from "../../../../test/api/support/webhooks";
import { signWebhook } from "./webhook-signature";

/** Checks the one signature of `headers` against `body` with `key`. */
function verifies(headers: Record<string, string>, key: Uint8Array, body: string): Promise<boolean> {
  const signed = { id: headers["webhook-id"]!, timestamp: headers["webhook-timestamp"]!, body };
  return verifiesSignature(headers["webhook-signature"]!, signed, key);
}

describe("signWebhook", () => {
  it("reproduces the Standard Webhooks reference vector for a whsec_ secret", async () => {
    const headers = await signWebhook(
      ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
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
    const headers = await signWebhook([secret], "msg_1", 1700000000, body);
    expect(headers["webhook-id"]).toBe("msg_1");
    expect(headers["webhook-timestamp"]).toBe("1700000000");
    expect(await verifies(headers, utf8(secret), body)).toBe(true);
    expect(await verifies(headers, utf8(secret), `${body} `)).toBe(false);
    expect(await verifies(headers, utf8("observer-secret-other-0123"), body)).toBe(false);
  });

  it("signs a binary body's bytes as they are sent, as it signs the UTF-8 bytes of a text body", async () => {
    const text = '{"d1":"temp\u00e9rature"}';
    const asText = await signWebhook(["observer-secret-0123"], "msg_3", 1700000002, text);
    const asBytes = await signWebhook(["observer-secret-0123"], "msg_3", 1700000002, utf8(text));
    expect(asBytes).toEqual(asText);
    const binary = await signWebhook(["observer-secret-0123"], "msg_3", 1700000002, new Uint8Array([0, 255, 128]));
    expect(binary["webhook-signature"]).not.toBe(asText["webhook-signature"]);
  });

  it("takes a whsec_ secret whose rest is not base64 as text, prefix included", async () => {
    const secret = "whsec_not*base64*at-all!";
    const headers = await signWebhook([secret], "msg_2", 1700000001, "body");
    expect(await verifies(headers, utf8(secret), "body")).toBe(true);
  });

  it("signs the id and the timestamp, not only the body", async () => {
    const secret = "a-plain-secret-of-32-characters!";
    const signatures = await Promise.all([
      signWebhook([secret], "msg_1", 1700000000, "body"),
      signWebhook([secret], "msg_2", 1700000000, "body"),
      signWebhook([secret], "msg_1", 1700000001, "body"),
    ]);
    expect(new Set(signatures.map((headers) => headers["webhook-signature"])).size).toBe(3);
    for (const headers of signatures) expect(await verifies(headers, utf8(secret), "body")).toBe(true);
  });

  it("gives one signature per secret, separated by a space, each verifying with its own secret", async () => {
    const [current, previous] = ["current-secret-0123456789", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"];
    const headers = await signWebhook([current, previous], "msg_3", 1700000002, "body");
    const signatures = headers["webhook-signature"]!.split(" ");
    const signed = { id: "msg_3", timestamp: "1700000002", body: "body" };
    const previousKey = Uint8Array.from(atob("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), (character) =>
      character.charCodeAt(0),
    );

    expect(signatures).toHaveLength(2);
    expect(await verifiesSignature(signatures[0]!, signed, utf8(current))).toBe(true);
    expect(await verifiesSignature(signatures[1]!, signed, previousKey)).toBe(true);
    expect(await verifiesSignature(signatures[0]!, signed, previousKey)).toBe(false);
  });
});
