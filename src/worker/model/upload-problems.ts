import { type FieldProblem, jsonPointer } from "../../shared/problems";
import { groupOfClass, isResourceClass, resourceClasses } from "./ontology";
import { collectorResourceSchema, type LocatedResource } from "./schema";

/*
 * Every problem of a PUT or POST /resources body at once. A body whose fields break the schema
 * never reaches the checks of ids and references, which need typed resources; so the elements are
 * also read leniently, their faulty fields left out, and those checks run on what remains. A bad
 * numberOfCPUs no longer hides a reference to nothing: the client fixes both in one round.
 */

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The body's elements, each with its class and where it is: the grouped form's arrays, or the flat form's items. */
function elementsOf(body: unknown): { at: string; clazz: string; element: Record<string, unknown> }[] {
  if (Array.isArray(body)) {
    return body.flatMap((element, index) =>
      isJsonObject(element) && typeof element.clazz === "string"
        ? [{ at: jsonPointer([index]), clazz: element.clazz, element }]
        : [],
    );
  }
  if (!isJsonObject(body)) return [];
  return resourceClasses.flatMap((clazz) => {
    const group = body[groupOfClass[clazz]];
    if (!Array.isArray(group)) return [];
    return group.flatMap((element, index) =>
      isJsonObject(element) ? [{ at: jsonPointer([groupOfClass[clazz], index]), clazz, element }] : [],
    );
  });
}

/**
 * The body's elements as far as their ids and references can be judged: each element of a known
 * class without the fields the schema found fault with (`problems`), read as a data collector's
 * resource is (only the id required). An element whose id is at fault is left out.
 */
export function judgeableResources(body: unknown, problems: readonly FieldProblem[]): LocatedResource[] {
  return elementsOf(body).flatMap(({ at, clazz, element }) => {
    if (!isResourceClass(clazz)) return [];
    const faulty = new Set(
      problems.flatMap(({ path }) => (path.startsWith(`${at}/`) ? [path.slice(at.length + 1).split("/")[0]!] : [])),
    );
    const fields = Object.fromEntries(Object.entries(element).filter(([field]) => !faulty.has(field)));
    const read = collectorResourceSchema.safeParse({ ...fields, clazz });
    return read.success ? [{ at, resource: read.data }] : [];
  });
}

/** The schema's problems, then those of ids and references that are not at (or under) a place the schema named. */
export function allProblems(schema: readonly FieldProblem[], integrity: readonly FieldProblem[]): FieldProblem[] {
  const named = schema.map((problem) => problem.path);
  const repeats = (path: string) => named.some((place) => path === place || path.startsWith(`${place}/`));
  return [...schema, ...integrity.filter((problem) => !repeats(problem.path))];
}

/**
 * Why a body that is one element, not a model, is refused: the flat form is an array even for one
 * element. Undefined for any other body.
 */
export function singleElementMessage(body: unknown, method: "PUT" | "POST"): string | undefined {
  if (!isJsonObject(body) || !Object.hasOwn(body, "clazz")) return undefined;
  const takes = method === "POST" ? "POST takes an array" : "PUT takes the whole model, an array";
  return `This is one element, not a model: ${takes} of elements (or the grouped form); wrap the element in [ ].`;
}
