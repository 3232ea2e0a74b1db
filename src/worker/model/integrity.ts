import { type FieldProblem, jsonPointer } from "../../shared/problems";
import {
  classesUnder,
  inWords,
  isA,
  type ReferenceFieldName,
  type ResourceClass,
  referenceFieldsOf,
  withArticle,
} from "./ontology";
import type { LocatedResource, Resource } from "./schema";

/** One id a resource refers to, with the path of the referring field inside the element. */
interface Reference {
  path: (string | number)[];
  target: ResourceClass;
  id: string;
}

/** The ids `resource` names in `field`: none, one, or a set. */
export function referencedIds(resource: Resource, field: ReferenceFieldName): string[] {
  const value = (resource as Partial<Record<ReferenceFieldName, string | string[]>>)[field];
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : value;
}

function referencesOf(resource: Resource): Reference[] {
  return referenceFieldsOf(resource.clazz).flatMap(([field, { target, many }]) =>
    referencedIds(resource, field).map((id, index) => ({ path: many ? [field, index] : [field], target, id })),
  );
}

/** "a Component (or an ExternalComponent, a VM, …)" when subclasses are accepted too. */
function describeTarget(target: ResourceClass): string {
  const subclasses = classesUnder(target).filter((clazz) => clazz !== target);
  if (subclasses.length === 0) return withArticle(target);
  return `${withArticle(target)} (or ${inWords(subclasses.map(withArticle), "or")})`;
}

/**
 * Every problem of writing `incoming` into the model, located in the request body: ids used twice in
 * the body, ids that would change class, and references that do not resolve to an element of the
 * right class (or a subclass) in the resulting model. `storedClassOf` answers for the stored elements
 * that stay in the model (none for a replacement, all of them for an upsert or a merge).
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
      if (actual !== undefined && isA(actual, reference.target)) continue;
      problems.push({
        path: located.at + jsonPointer(reference.path),
        message:
          actual === undefined
            ? `No resource has the id "${reference.id}"; expected ${describeTarget(reference.target)}.`
            : `"${reference.id}" is ${withArticle(actual)}, not ${describeTarget(reference.target)}.`,
      });
    }
  }
  return problems;
}
