/** Runs `task` on every item, at most `atOnce` at a time; resolves with the results in the items' order. */
export async function fewAtOnce<T, R>(
  items: readonly T[],
  atOnce: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await task(items[index]!);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return results;
}
