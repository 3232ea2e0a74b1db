/** The UTF-8 bytes of `text`: the key of a secret that is not written as `whsec_<base64>`. */
export const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * Whether `signature` (`v1,<base64>`) is the HMAC-SHA256 with `key` over `${id}.${timestamp}.${body}`,
 * as a Standard Webhooks receiver checks it.
 */
export async function verifiesSignature(
  signature: string,
  signed: { id: string; timestamp: string; body: string },
  key: Uint8Array,
): Promise<boolean> {
  if (!signature.startsWith("v1,")) return false;
  const mac = Uint8Array.from(atob(signature.slice(3)), (character) => character.charCodeAt(0));
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return crypto.subtle.verify("HMAC", cryptoKey, mac, utf8(`${signed.id}.${signed.timestamp}.${signed.body}`));
}
