import { type FieldProblem, jsonPointer } from "../../shared/problems";
import { type LocatedResource, type Resource, type ResourceClass, withArticle } from "./schema";

/** One id a resource refers to, with the path of the referring field inside the element. */
interface Reference {
  path: (string | number)[];
  target: ResourceClass;
  id: string;
}

function listed(field: string, target: ResourceClass, ids: readonly string[]): Reference[] {
  return ids.map((id, index) => ({ path: [field, index], target, id }));
}

function referencesOf(resource: Resource): Reference[] {
  switch (resource.clazz) {
    case "VM":
      return [{ path: ["cloudProvider"], target: "CloudProvider", id: resource.cloudProvider }];
    case "InternalComponent":
      return [
        ...listed("providedMethods", "Method", resource.providedMethods),
        ...listed("requiredComponents", "VM", resource.requiredComponents),
      ];
    case "CloudProvider":
    case "Method":
      return [];
  }
}

/**
 * Every problem of writing `incoming` into the model, located in the request body: ids used twice in
 * the body, ids that would change class, and references that do not resolve to an element of the
 * right class in the resulting model. `storedClassOf` answers for the stored elements that stay in
 * the model (none for a replacement, all of them for an upsert).
 */
export function integrityProblems(
  incoming: readonly LocatedResource[],
  storedClassOf: (id: string) => ResourceClass | undefined,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const firstUse = new Map<string, LocatedResource>();
  for (const located of incoming) {
    const { id, clazz } = located.resource;
    const earlier = firstUse.get(id);
    if (earlier) {
      problems.push({ path: `${located.at}/id`, message: `Duplicate id "${id}"; it is also used at ${earlier.at}.` });
      continue;
    }
    firstUse.set(id, located);
    const storedClass = storedClassOf(id);
    if (storedClass !== undefined && storedClass !== clazz) {
      const stored = `"${id}" is ${withArticle(storedClass)} in the stored model`;
      problems.push({ path: `${located.at}/id`, message: `${stored}; an id cannot change class (delete it first).` });
    }
  }

  const resultingClassOf = (id: string) => firstUse.get(id)?.resource.clazz ?? storedClassOf(id);
  for (const located of incoming) {
    for (const reference of referencesOf(located.resource)) {
      const actual = resultingClassOf(reference.id);
      if (actual === reference.target) continue;
      problems.push({
        path: located.at + jsonPointer(reference.path),
        message:
          actual === undefined
            ? `No resource has the id "${reference.id}"; expected ${withArticle(reference.target)}.`
            : `"${reference.id}" is ${withArticle(actual)}, not ${withArticle(reference.target)}.`,
      });
    }
  }
  return problems;
}
