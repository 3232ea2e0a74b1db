/**
 * A Standard Webhooks secret: `whsec_` and the base64 of 24 random bytes. Receivers using a
 * Standard Webhooks library verify with it as it is.
 */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** The secret to store for a requested one: "generate" is replaced by a new secret. */
export function resolveSecret<Requested extends string | null | undefined>(requested: Requested): Requested | string {
  return requested === "generate" ? generateSecret() : requested;
}
