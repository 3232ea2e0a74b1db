import type { Resource } from "./schema";

/**
 * A resource described again (by a data collector) merged into the stored description of the same id
 * and class: a set of references becomes the union of both (stored ids first, in their order), and
 * every other field the new description gives replaces the stored one; what it leaves out is kept.
 */
export function mergedResource(stored: Resource, incoming: Resource): Resource {
  const merged: Record<string, unknown> = { ...stored };
  for (const [field, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    const storedValue = merged[field];
    merged[field] =
      Array.isArray(value) && Array.isArray(storedValue) ? [...new Set([...storedValue, ...value])] : value;
  }
  return merged as Resource;
}
