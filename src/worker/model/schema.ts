import { z } from "zod";
import { jsonPointer } from "../../shared/problems";

/*
 * The request shapes of PUT/POST /resources and the types of the model's elements. Both body forms
 * (grouped and flat) normalise to one list of typed resources, each remembering where in the body
 * it came from, so that checks made later (references, stored classes) can point into the body.
 */

/** The classes of the model, in the order rows are written: every class after the ones it refers to. */
export const resourceClasses = ["CloudProvider", "Method", "VM", "InternalComponent"] as const;
export type ResourceClass = (typeof resourceClasses)[number];

/** The array of the grouped form that holds each class. */
export const groupOfClass = {
  CloudProvider: "cloudProviders",
  InternalComponent: "internalComponents",
  Method: "methods",
  VM: "vMs",
} as const satisfies Record<ResourceClass, string>;

export function withArticle(clazz: ResourceClass): string {
  return /^[AEIOU]/.test(clazz) ? `an ${clazz}` : `a ${clazz}`;
}

/** "Required: …" for a missing field, "Must be …" for a present one of the wrong type. */
function expected(description: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `Required: ${description}.` : `Must be ${description}.`;
}

function nonEmptyString(description: string) {
  return z.string({ error: expected(description) }).min(1, `Must be ${description}.`);
}

const resourceId = nonEmptyString("a non-empty string");
const resourceType = nonEmptyString("a non-empty string");
const reference = (target: ResourceClass) =>
  nonEmptyString(`the id of ${withArticle(target)}`).meta({ description: `The id of ${withArticle(target)}.` });

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

const resourceFields = {
  CloudProvider: { id: resourceId, type: resourceType },
  Method: { id: resourceId, type: resourceType },
  VM: {
    id: resourceId,
    type: resourceType,
    cloudProvider: reference("CloudProvider"),
    numberOfCPUs: z.int({ error: expected("an integer of at least 1") }).min(1, "Must be an integer of at least 1."),
  },
  InternalComponent: {
    id: resourceId,
    type: resourceType,
    providedMethods: references("Method"),
    requiredComponents: references("VM"),
  },
} as const satisfies Record<ResourceClass, z.ZodRawShape>;

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

function elementDescription(clazz: ResourceClass): string {
  return `${withArticle(clazz)}: an object with the fields ${Object.keys(resourceFields[clazz]).join(", ")}`;
}

function explainUnknownField(clazz: ResourceClass, key: string): string {
  const owners = resourceClasses.filter((other) => other !== clazz && Object.hasOwn(resourceFields[other], key));
  if (owners.length > 0) {
    return `Field "${key}" is not allowed on ${withArticle(clazz)}; it belongs to ${owners.join(" and ")}.`;
  }
  const fieldNames = Object.keys(resourceFields[clazz]).join(", ");
  return `Unknown field "${key}"; the fields of ${withArticle(clazz)} are ${fieldNames}.`;
}

/**
 * The two schemas of an element of class `clazz`, which differ only in how the element may name
 * its class: optionally (and then as the array's class) in the grouped form, necessarily in the flat form.
 */
function elementSchemas<C extends ResourceClass, S extends z.ZodRawShape>(clazz: C, fields: S) {
  const withClazzField = <K extends z.ZodType<C | undefined>>(clazzField: K) =>
    closedObject({ ...fields, clazz: clazzField }, elementDescription(clazz), (key) =>
      explainUnknownField(clazz, key),
    ).transform((element) => ({ ...element, clazz }));
  return {
    grouped: withClazzField(z.literal(clazz, `Must be "${clazz}" in ${groupOfClass[clazz]}.`).optional()),
    flat: withClazzField(z.literal(clazz)),
  };
}

const resourceSchemas = {
  CloudProvider: elementSchemas("CloudProvider", resourceFields.CloudProvider),
  InternalComponent: elementSchemas("InternalComponent", resourceFields.InternalComponent),
  Method: elementSchemas("Method", resourceFields.Method),
  VM: elementSchemas("VM", resourceFields.VM),
};

export type Resource = z.output<(typeof resourceSchemas)[ResourceClass]["flat"]>;
export type ResourceOf<C extends ResourceClass> = Extract<Resource, { clazz: C }>;
/** An element as the grouped form holds it: the array names its class. */
export type ResourceFields<C extends ResourceClass> = Omit<ResourceOf<C>, "clazz">;

/** The model in the grouped form, as GET /resources returns it: every array present, sorted by id. */
export const modelDocumentSchema = z
  .strictObject({
    cloudProviders: z.array(z.strictObject(resourceFields.CloudProvider)),
    internalComponents: z.array(z.strictObject(resourceFields.InternalComponent)),
    methods: z.array(z.strictObject(resourceFields.Method)),
    vMs: z.array(z.strictObject(resourceFields.VM)),
  } satisfies Record<(typeof groupOfClass)[ResourceClass], z.ZodType>)
  .meta({ id: "Model", description: "The whole model in the grouped form; each array sorted by id." });

export type ModelDocument = z.output<typeof modelDocumentSchema>;

/** One element with its class, as GET /resources/:id returns it. */
export const resourceSchema = z
  .discriminatedUnion("clazz", [
    z.strictObject({ clazz: z.literal("CloudProvider"), ...resourceFields.CloudProvider }),
    z.strictObject({ clazz: z.literal("InternalComponent"), ...resourceFields.InternalComponent }),
    z.strictObject({ clazz: z.literal("Method"), ...resourceFields.Method }),
    z.strictObject({ clazz: z.literal("VM"), ...resourceFields.VM }),
  ])
  .meta({ id: "Resource", description: "An element of the model and its class." }) satisfies z.ZodType<Resource>;

/** A resource of a request body and the JSON pointer of the element it came from. */
export interface LocatedResource {
  at: string;
  resource: Resource;
}

function group<C extends ResourceClass>(clazz: C) {
  return z.array(resourceSchemas[clazz].grouped, { error: expected(`an array of ${clazz} elements`) }).optional();
}

const groupedModelShape = {
  cloudProviders: group("CloudProvider"),
  internalComponents: group("InternalComponent"),
  methods: group("Method"),
  vMs: group("VM"),
} satisfies Record<(typeof groupOfClass)[ResourceClass], z.ZodType>;

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
const resourceOfItsClass: z.ZodType<Resource, z.output<typeof namesItsClass>> = z.discriminatedUnion("clazz", [
  resourceSchemas.CloudProvider.flat,
  resourceSchemas.InternalComponent.flat,
  resourceSchemas.Method.flat,
  resourceSchemas.VM.flat,
]);

/** A flat element: its `clazz` is checked first, so that its fields are judged by the right class. */
const flatElementSchema = namesItsClass.pipe(resourceOfItsClass);

const flatModelSchema = z
  .array(flatElementSchema)
  .transform((resources): LocatedResource[] =>
    resources.map((resource, index) => ({ at: jsonPointer([index]), resource })),
  );

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
export const documentedModelUpload = z.union([groupedModelSchema, z.array(resourceOfItsClass)]).meta({
  id: "ModelUpload",
  description:
    "The model in the grouped form (an object of up to four arrays) or the flat form (an array of elements " +
    "that name their clazz). References must name elements of the right class in the resulting model.",
});

/** The path parameter of /resources/:id. */
export const resourceIdParams = z.object({
  id: resourceId.meta({ description: "The element's id, unique across the model; percent-encoded." }),
});
