import type { LabelChanges, ResourceSelection } from "./api-types";
import { formatCount } from "./format";

/** How many ids a selection's description names before it counts the rest. */
const idsNamed = 3;

/** "a, b, c and 4 more". */
function someOf(names: readonly string[]): string {
  if (names.length <= idsNamed) return names.join(", ");
  return `${names.slice(0, idsNamed).join(", ")} and ${formatCount(names.length - idsNamed)} more`;
}

/** A selection through the model in words: "VM of type Frontend within amazon", "any resource with id a, b". */
export function selectionInWords(selection: ResourceSelection): string {
  return [
    selection.class ?? "any resource",
    selection.type === undefined ? "" : ` of type ${selection.type}`,
    selection.ids === undefined ? "" : ` with id ${someOf(selection.ids)}`,
    selection.within === undefined ? "" : ` within ${selection.within}`,
  ].join("");
}

/** Label changes in words: `adds region="eu", drops pod`. */
export function labelChangesInWords(labels: LabelChanges): string {
  const added = Object.entries(labels.add ?? {}).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  const dropped = labels.drop ?? [];
  return [
    added.length === 0 ? "" : `adds ${added.join(", ")}`,
    dropped.length === 0 ? "" : `drops ${dropped.join(", ")}`,
  ]
    .filter(Boolean)
    .join("; ");
}

/** "1 metric", "3 metrics". */
export function metrics(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "metric" : "metrics"}`;
}
