import { z } from "zod";
import { inWords, resourceClasses } from "../../model/ontology";

export const MAX_SELECTED_IDS = 1_000;

const classMessage = `The class must be one of the model's classes: ${inWords(resourceClasses, "or")}.`;

/** A resource id as a selection names it. */
function resourceIdSchema(what: string) {
  return z
    .string(`The ${what} must be a string.`)
    .min(1, `The ${what} must not be empty.`)
    .max(1_024, `The ${what} must be at most 1024 characters long.`);
}

/**
 * The `resources` of an observer that follows selectors: which resources of the knowledge base its
 * data must be about. Every field given must hold; none given selects every resource of the model.
 */
export const resourceSelectionSchema = z
  .strictObject({
    class: z
      .enum(resourceClasses, classMessage)
      .optional()
      .meta({ description: "A class of the model; its subclasses' resources are of it too (a VM is a Component)." }),
    type: z
      .string("The type must be a string.")
      .min(1, "The type must not be empty.")
      .max(256, "The type must be at most 256 characters long.")
      .optional()
      .meta({ description: "The resource's type, exactly." }),
    ids: z
      .array(resourceIdSchema("id"), "The ids must be an array of resource ids (strings).")
      .min(1, "Give at least one id.")
      .max(MAX_SELECTED_IDS, `At most ${MAX_SELECTED_IDS} ids may be given.`)
      .optional()
      .meta({ description: "The resource is one of these." }),
    within: resourceIdSchema("within resource id")
      .optional()
      .meta({
        description:
          "The id of a resource that holds the datum's resource, as the rules group (transitively): a VM is within " +
          "its cloud provider, its location, and the node, cluster and rack that hold it; a resource is within itself.",
      }),
  })
  .meta({
    id: "ResourceSelection",
    description:
      "A selection through the knowledge base: the datum's resource (its resourceId, or for agent data the primary " +
      "label's value; agent data without a primary label have none) must be a resource of the model that meets " +
      "every field given. A change of the model changes what matches within 10 seconds.",
  });

export type ResourceSelection = z.output<typeof resourceSelectionSchema>;
