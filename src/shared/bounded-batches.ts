/** How large one batch may grow. */
export interface BatchLimits<T> {
  /** Most items in one batch. */
  maxItems?: number;
  /** Largest total `sizeOf` of one batch's items. */
  maxSize?: number;
  /** An item's share of `maxSize`. */
  sizeOf?: (item: T) => number;
}

/** A batch of items, with the total size of its items. */
export interface Batch<T> {
  items: T[];
  size: number;
}

/**
 * Packs `items`, in order, into consecutive batches that stay within the limits: each batch takes
 * items until the next one would break a limit. An item larger than `maxSize` on its own still
 * gets a batch (alone), so no item is ever dropped; callers that cannot send such an item check
 * for it themselves.
 */
export function packBatches<T>(items: Iterable<T>, limits: BatchLimits<T>): Batch<T>[] {
  const { maxItems = Number.POSITIVE_INFINITY, maxSize = Number.POSITIVE_INFINITY, sizeOf } = limits;
  // Batches by count alone are consecutive slices: no item need be looked at (payloads of many data).
  if (sizeOf === undefined && Array.isArray(items)) return slicesOf(items as T[], maxItems);
  const batches: Batch<T>[] = [];
  let current: Batch<T> = { items: [], size: 0 };
  for (const item of items) {
    const size = sizeOf ? sizeOf(item) : 0;
    const full = current.items.length === maxItems || current.size + size > maxSize;
    if (full && current.items.length > 0) {
      batches.push(current);
      current = { items: [], size: 0 };
    }
    current.items.push(item);
    current.size += size;
  }
  if (current.items.length > 0) batches.push(current);
  return batches;
}

/** `items` in consecutive slices of at most `maxItems`. */
function slicesOf<T>(items: T[], maxItems: number): Batch<T>[] {
  const batches: Batch<T>[] = [];
  for (let start = 0; start < items.length; start += maxItems) {
    batches.push({ items: items.slice(start, start + maxItems), size: 0 });
  }
  return batches;
}
