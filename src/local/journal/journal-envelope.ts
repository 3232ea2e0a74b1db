/** Where a message waits in the intake journal until it is consumed: the shard, and the entry there. */
export type JournalReference = [shard: number, entry: string];

/**
 * A message as the local queue carries it: the Worker's body, and where the journal keeps it. The
 * local entry adds it on the way to the queue and takes it off before the Worker's consumer, so
 * that the Worker's own message layout knows nothing of the journal.
 */
export interface JournalEnvelope {
  journalEntry: JournalReference;
  body: Uint8Array;
}

/** The envelope's content type: the local queue sends it as a structured clone. */
export const envelopeContentType = "v8";

export function isJournalEnvelope(body: unknown): body is JournalEnvelope {
  return typeof body === "object" && body !== null && "journalEntry" in body && "body" in body;
}

/** The bytes of a body the Worker sends: the journal keeps bytes, which is all the Worker's intake sends. */
export function journaledBytes(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError(`the intake journal keeps message bodies of bytes, not of type ${typeof body}`);
}
