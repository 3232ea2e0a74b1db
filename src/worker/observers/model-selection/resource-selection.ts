import { isA } from "../../model/ontology";
import type { ModelView } from "./model-view";
import type { ResourceSelection } from "./resource-selection-schema";

/** Whether a datum's resource (undefined when it has none) is one the selection selects. */
export type ResourceMatcher = (resource: string | undefined) => boolean;

function selects(selection: ResourceSelection, model: ModelView, id: string): boolean {
  const resource = model.resources.get(id);
  if (resource === undefined) return false;
  if (selection.class !== undefined && !isA(resource.clazz, selection.class)) return false;
  if (selection.type !== undefined && resource.type !== selection.type) return false;
  return selection.within === undefined || model.isWithin(id, selection.within);
}

/**
 * The selection over one version of the model: the selected resources are found once, so that
 * matching a datum is one set lookup.
 */
export function compileResourceSelection(selection: ResourceSelection, model: ModelView): ResourceMatcher {
  const selected = new Set<string>();
  for (const id of selection.ids ?? model.resources.keys()) {
    if (selects(selection, model, id)) selected.add(id);
  }
  return (resource) => resource !== undefined && selected.has(resource);
}
