/** How many summary shards there are: what a summary's read costs, in Durable Object requests. */
export const summaryShardCount = 4;

/** FNV-1a of a string's UTF-16 code units: the same number in every isolate. */
export function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The shard of a metric (with its observers) or of a selector observer. */
export function shardOfKey(key: string): number {
  return stringHash(key) % summaryShardCount;
}
