import { z } from "zod";
import { jsonPointer } from "../../shared/problems";
import { maxIdentifierLength } from "../vocabulary/rdf-literal-rules";
import {
  type GroupName,
  groupOfClass,
  inWords,
  type ResourceClass,
  type referenceFields,
  referenceFieldsOf,
  resourceClasses,
  withArticle,
} from "./ontology";

/*
 * The request shapes of PUT/POST /resources, of a data collector's resources, and the types of the
 * model's elements. Both body forms (grouped and flat) normalise to one list of typed resources, each
 * remembering where in the body it came from, so that checks made later (references, stored classes)
 * can point into the body.
 *
 * Two strictnesses of the same fields: /resources requires what its contract names (a type on every
 * element, a VM's provider and CPUs), while the original's data collectors describe resources with
 * their id alone and whatever else they know. The model holds both, so it is typed by the latter.
 */

/** "Required: …" for a missing field, "Must be …" for a present one of the wrong type. */
function expected(description: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `Required: ${description}.` : `Must be ${description}.`;
}

function nonEmptyString(description: string) {
  return z.string({ error: expected(description) }).min(1, `Must be ${description}.`);
}

/** An id is at most as long as a datum's resourceId, which names the resource in monitoring data. */
const boundedId = (description: string) =>
  nonEmptyString(description).max(maxIdentifierLength, `Must be at most ${maxIdentifierLength} characters.`);

const resourceId = boundedId("a non-empty string");
const resourceType = nonEmptyString("a non-empty string");
const cpuCount = z.int({ error: expected("an integer of at least 1") }).min(1, "Must be an integer of at least 1.");

const reference = (target: ResourceClass) =>
  boundedId(`the id of ${withArticle(target)}`).meta({ description: `The id of ${withArticle(target)}.` });

/** A relationship: ids of `target` elements, each listed once. */
function references(target: ResourceClass) {
  return z
    .array(reference(target), { error: expected(`an array of ${target} ids`) })
    .meta({ uniqueItems: true })
    .superRefine((ids, ctx) => {
      const firstIndex = new Map<string, number>();
      ids.forEach((id, index) => {
        const earlier = firstIndex.get(id);
        if (earlier === undefined) firstIndex.set(id, index);
        else ctx.addIssue({ code: "custom", path: [index], message: `"${id}" is already listed at index ${earlier}.` });
      });
    })
    .default([]);
}

type ReferenceShape<C extends ResourceClass> = {
  [F in keyof (typeof referenceFields)[C]]: (typeof referenceFields)[C][F] extends { many: true }
    ? ReturnType<typeof references>
    : z.ZodOptional<ReturnType<typeof reference>>;
};

/** A class's fields as a collector may give them: the id, and the rest when known (a set defaults to empty). */
function collectorShape<C extends ResourceClass>(clazz: C) {
  const shape: Record<string, z.ZodType> = { id: resourceId, type: resourceType.optional() };
  for (const [field, { target, many }] of referenceFieldsOf(clazz)) {
    shape[field] = many ? references(target) : reference(target).optional();
  }
  return shape as { id: typeof resourceId; type: z.ZodOptional<typeof resourceType> } & ReferenceShape<C>;
}

const collectorFields = {
  CloudProvider: collectorShape("CloudProvider"),
  Method: collectorShape("Method"),
  VM: { ...collectorShape("VM"), numberOfCPUs: cpuCount.optional() },
  InternalComponent: collectorShape("InternalComponent"),
  Location: collectorShape("Location"),
  Component: collectorShape("Component"),
  ExternalComponent: collectorShape("ExternalComponent"),
  PaaSService: collectorShape("PaaSService"),
  Node: collectorShape("Node"),
  Cluster: collectorShape("Cluster"),
  Rack: collectorShape("Rack"),
} satisfies Record<ResourceClass, z.ZodRawShape>;
type CollectorFields = typeof collectorFields;

/** The fields /resources requires: a type on every element, and a VM's cloud provider and CPUs. */
const uploadFields = {
  ...(Object.fromEntries(
    resourceClasses.map((clazz) => [clazz, { ...collectorFields[clazz], type: resourceType }]),
  ) as { [C in ResourceClass]: Omit<CollectorFields[C], "type"> & { type: typeof resourceType } }),
  VM: { ...collectorFields.VM, type: resourceType, cloudProvider: reference("CloudProvider"), numberOfCPUs: cpuCount },
} satisfies Record<ResourceClass, z.ZodRawShape>;

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An object schema that rejects every key outside `shape` with a message of its own (a strict zod
 * object says only "Unrecognized key"). Field problems and unknown keys are reported together.
 */
function closedObject<S extends z.ZodRawShape>(
  shape: S,
  description: string,
  explainUnknownKey: (key: string) => string,
) {
  return (
    z
      .looseObject(shape, { error: expected(description) })
      // Loose so that the check below can explain each unknown key; to a client the object is closed.
      .meta({ additionalProperties: false })
      .superRefine(
        (value, ctx) => {
          for (const key of Object.keys(value)) {
            if (Object.hasOwn(shape, key)) continue;
            ctx.addIssue({ code: "custom", path: [key], message: explainUnknownKey(key) });
          }
        },
        { when: (payload) => isJsonObject(payload.value) },
      )
      // Every key outside `shape` was rejected above.
      .transform((value) => value as z.output<z.ZodObject<S>>)
  );
}

function fieldNames(clazz: ResourceClass): string {
  return Object.keys(uploadFields[clazz]).join(", ");
}

function elementDescription(clazz: ResourceClass): string {
  return `${withArticle(clazz)}: an object with the fields ${fieldNames(clazz)}`;
}

function explainUnknownField(clazz: ResourceClass, key: string): string {
  const owners = resourceClasses.filter((other) => other !== clazz && Object.hasOwn(uploadFields[other], key));
  if (owners.length > 0) {
    return `Field "${key}" is not allowed on ${withArticle(clazz)}; it belongs to ${inWords(owners)}.`;
  }
  return `Unknown field "${key}"; the fields of ${withArticle(clazz)} are ${fieldNames(clazz)}.`;
}

/** An element of class `C` with its class named. */
type ResourceOfClass<C extends ResourceClass> = { clazz: C } & z.output<z.ZodObject<CollectorFields[C]>>;

/** A resource of the model: every field but the id may be missing on what a data collector registered. */
export type Resource = { [C in ResourceClass]: ResourceOfClass<C> }[ResourceClass];
type ResourceOf<C extends ResourceClass> = Extract<Resource, { clazz: C }>;

/**
 * The schema of an element of class `clazz` in one of the flat forms, or in the grouped form, where
 * it may name its class (and then as its array's class).
 */
function elementSchema<C extends ResourceClass>(clazz: C, fields: z.ZodRawShape, clazzField: z.ZodType) {
  return closedObject({ ...fields, clazz: clazzField }, elementDescription(clazz), (key) =>
    explainUnknownField(clazz, key),
  ).transform((element) => ({ ...element, clazz }) as ResourceOf<C>);
}

type ElementSchema = ReturnType<typeof elementSchema>;
type ClassSchemas = Record<ResourceClass, ElementSchema>;

function schemasOfEveryClass(schemaOf: (clazz: ResourceClass) => ElementSchema): ClassSchemas {
  return Object.fromEntries(resourceClasses.map((clazz) => [clazz, schemaOf(clazz)])) as ClassSchemas;
}

const groupedElementSchemas = schemasOfEveryClass((clazz) =>
  elementSchema(
    clazz,
    uploadFields[clazz],
    z.literal(clazz, `Must be "${clazz}" in ${groupOfClass[clazz]}.`).optional(),
  ),
);
const flatElementSchemas = schemasOfEveryClass((clazz) => elementSchema(clazz, uploadFields[clazz], z.literal(clazz)));
const collectorElementSchemas = schemasOfEveryClass((clazz) =>
  elementSchema(clazz, collectorFields[clazz], z.literal(clazz)),
);

/** The model in the grouped form, as GET /resources returns it: every array present, sorted by id. */
export const modelDocumentSchema = z
  .strictObject(
    Object.fromEntries(
      resourceClasses.map((clazz) => [groupOfClass[clazz], z.array(z.strictObject(collectorFields[clazz]))]),
    ) as { [C in ResourceClass as (typeof groupOfClass)[C]]: z.ZodArray<z.ZodObject<CollectorFields[C]>> },
  )
  .meta({
    id: "Model",
    description:
      "The whole model in the grouped form; each array sorted by id. Fields that /resources requires may be " +
      "missing on resources a data collector registered without them.",
  });

export type ModelDocument = z.output<typeof modelDocumentSchema>;

function oneOfEveryClass(schemaOf: (clazz: ResourceClass) => z.ZodType) {
  return resourceClasses.map(schemaOf) as unknown as [ElementSchema, ...ElementSchema[]];
}

/** One element with its class, as GET /resources/:id returns it. */
export const resourceSchema = z
  .discriminatedUnion(
    "clazz",
    oneOfEveryClass((clazz) => z.strictObject({ clazz: z.literal(clazz), ...collectorFields[clazz] })),
  )
  .meta({ id: "Resource", description: "An element of the model and its class." }) as unknown as z.ZodType<Resource>;

/** A resource of a request body and the JSON pointer of the element it came from. */
export interface LocatedResource {
  at: string;
  resource: Resource;
}

const groupedModelShape = Object.fromEntries(
  resourceClasses.map((clazz) => [
    groupOfClass[clazz],
    z.array(groupedElementSchemas[clazz], { error: expected(`an array of ${clazz} elements`) }).optional(),
  ]),
) as Record<GroupName, z.ZodOptional<z.ZodArray<ElementSchema>>>;

const groupedModelSchema = closedObject(
  groupedModelShape,
  "the model: an object of arrays (grouped form) or an array of elements that name their clazz (flat form)",
  (key) => `Unknown field "${key}"; the arrays of the model are ${Object.keys(groupedModelShape).join(", ")}.`,
).transform((groups): LocatedResource[] =>
  resourceClasses.flatMap((clazz) => {
    const group = groupOfClass[clazz];
    return (groups[group] ?? []).map((resource, index) => ({ at: jsonPointer([group, index]), resource }));
  }),
);

const classList = resourceClasses.join(", ");
const classField = z.enum(resourceClasses, {
  error: (issue) =>
    issue.input === undefined
      ? `Required: the class of the element, one of ${classList}.`
      : `Unknown class ${JSON.stringify(issue.input)}; expected one of ${classList}.`,
});

const namesItsClass = z.looseObject(
  { clazz: classField },
  { error: expected(`a model element: an object with a clazz (${classList})`) },
);

/** The element judged by the class it names. */
function ofItsClass(schemas: ClassSchemas): z.ZodType<Resource, z.output<typeof namesItsClass>> {
  return z.discriminatedUnion(
    "clazz",
    oneOfEveryClass((clazz) => schemas[clazz]),
  ) as unknown as z.ZodType<Resource, z.output<typeof namesItsClass>>;
}

const flatElementOfItsClass = ofItsClass(flatElementSchemas);

/** A flat element: its `clazz` is checked first, so that its fields are judged by the right class. */
const flatModelSchema = z
  .array(namesItsClass.pipe(flatElementOfItsClass))
  .transform((resources): LocatedResource[] =>
    resources.map((resource, index) => ({ at: jsonPointer([index]), resource })),
  );

/**
 * One resource as the original's data collectors describe it (a DCDescriptor's `resources`): the
 * flat form with only the id required. `Resource` is not a class of its own here.
 */
export const collectorResourceSchema = namesItsClass.pipe(ofItsClass(collectorElementSchemas));

/**
 * The body of PUT and POST /resources in either form: a JSON array is the flat form, anything else
 * is judged as the grouped form. (A zod union would report "Invalid input" for the whole body
 * instead of the problems of the form the client meant.)
 */
export const modelUploadSchema = z.unknown().transform((body, ctx): LocatedResource[] => {
  const result = (Array.isArray(body) ? flatModelSchema : groupedModelSchema).safeParse(body);
  const prototypeKeys = prototypeKeyPaths(body);
  if (result.success && prototypeKeys.length === 0) return result.data;
  for (const issue of result.success ? [] : result.error.issues) {
    ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  }
  for (const path of prototypeKeys) ctx.addIssue({ code: "custom", path, message: "Unknown field." });
  return z.NEVER;
});

/**
 * Where the body holds an own "__proto__" key. JSON.parse keeps it as data, but zod's objects drop
 * it silently, so the schemas above cannot report it; no model field has that name.
 */
function prototypeKeyPaths(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  if (typeof value !== "object" || value === null) return [];
  const found: PropertyKey[][] = Object.hasOwn(value, "__proto__") ? [[...path, "__proto__"]] : [];
  for (const [key, child] of Object.entries(value)) found.push(...prototypeKeyPaths(child, [...path, key]));
  return found;
}

/**
 * The body as documented: the two forms this schema tells apart, each as the schema that judges
 * it (a flat element by the class it names).
 */
export const documentedModelUpload = z.union([groupedModelSchema, z.array(flatElementOfItsClass)]).meta({
  id: "ModelUpload",
  description:
    `The model in the grouped form (an object of up to ${resourceClasses.length} arrays) or the flat form ` +
    "(an array of elements that name their clazz). References must name elements of the right class in the " +
    "resulting model.",
});

/** The path parameter of /resources/:id. */
export const resourceIdParams = z.object({
  id: resourceId.meta({ description: "The element's id, unique across the model; percent-encoded." }),
});
