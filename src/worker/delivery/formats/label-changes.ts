import type { Label } from "../../vocabulary/datum";
import type { LabelChanges } from "../../vocabulary/delivery";

/** A label set with an observer's changes applied. */
export type LabelChanger = (pairs: readonly Label[]) => readonly Label[];

/** The order of a label set: by name, in UTF-16 code units (byte order for ASCII names). */
export const byLabelName = (left: Label, right: Label) => (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0);

const unchanged: LabelChanger = (pairs) => pairs;

/**
 * Applies `changes` to label sets sorted by name: each label of `add` set (over a label of that
 * name), then each label of `drop` removed (also one just added). The result is sorted by name,
 * each name once; without changes it is the set itself.
 */
export function labelChanger(changes: LabelChanges | undefined): LabelChanger {
  const drop = new Set(changes?.drop);
  const added = Object.entries(changes?.add ?? {}).filter(([name]) => !drop.has(name));
  if (added.length === 0 && drop.size === 0) return unchanged;
  const replaced = new Set([...drop, ...added.map(([name]) => name)]);
  return (pairs) => [...pairs.filter(([name]) => !replaced.has(name)), ...added].sort(byLabelName);
}
