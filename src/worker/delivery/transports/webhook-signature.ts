/*
 * Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
 * `${id}.${timestamp}.${body}`, sent as `webhook-signature: v1,<base64>`.
 *
 * The key: a secret written the spec's way, `whsec_<base64>`, signs with the bytes it encodes, so
 * a receiver using a Standard Webhooks library verifies with the secret as given. Any other secret
 * (an observer's secret is a free 16–128 character string) signs with its UTF-8 bytes; a receiver
 * then verifies with those raw bytes, e.g. by base64-encoding its secret for such a library. A
 * `whsec_` secret whose rest is not base64 is also taken as UTF-8 text, as a whole.
 */

const secretPrefix = "whsec_";
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

function keyBytes(secret: string): Uint8Array {
  const encoded = secret.slice(secretPrefix.length);
  if (secret.startsWith(secretPrefix) && encoded.length > 0 && base64.test(encoded)) {
    return Uint8Array.from(atob(encoded), (character) => character.charCodeAt(0));
  }
  return new TextEncoder().encode(secret);
}

function toBase64(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)));
}

async function sign(secret: string, signed: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey("raw", keyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return `v1,${toBase64(await crypto.subtle.sign("HMAC", key, signed))}`;
}

/** What is signed: the id and timestamp, then the body's bytes (a text body's in UTF-8). */
function signedBytes(prefix: string, body: string | Uint8Array): Uint8Array {
  if (typeof body === "string") return new TextEncoder().encode(`${prefix}${body}`);
  const head = new TextEncoder().encode(prefix);
  const signed = new Uint8Array(head.length + body.length);
  signed.set(head);
  signed.set(body, head.length);
  return signed;
}

/**
 * The Standard Webhooks headers of one delivery attempt; `timestampSeconds` is Unix time. Several
 * secrets (during a rotation: the new one and the one it replaces) give one signature each,
 * separated by spaces, so a receiver holding either secret verifies the delivery.
 */
export async function signWebhook(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string | Uint8Array,
): Promise<Record<string, string>> {
  const timestamp = String(timestampSeconds);
  const signed = signedBytes(`${id}.${timestamp}.`, body);
  const signatures = await Promise.all(secrets.map((secret) => sign(secret, signed)));
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": signatures.join(" "),
  };
}
