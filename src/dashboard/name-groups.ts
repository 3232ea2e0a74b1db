/** Metrics grouped by the first word of their names: `node_*`, `cpu.*`. */

/** A name's group: its first word with the separator after it (`node_`, `cpu.`); none for a name of one word. */
export function prefixOf(name: string): string | undefined {
  return /^[^._:/-]+[._:/-]/.exec(name)?.[0];
}

export interface NameGroup {
  prefix: string;
  count: number;
}

/** The groups of two names or more, the largest first, then by prefix. */
export function nameGroups(names: readonly string[]): NameGroup[] {
  const counts = new Map<string, number>();
  for (const name of names) {
    const prefix = prefixOf(name);
    if (prefix !== undefined) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, count]) => count > 1)
    .map(([prefix, count]) => ({ prefix, count }))
    .sort((left, right) => right.count - left.count || (left.prefix < right.prefix ? -1 : 1));
}
