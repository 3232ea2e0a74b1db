/**
 * The primary label's value, from a resourceId that begins with it: the part before the first comma
 * that no backslash escapes, without its escapes (series-data.ts escapes `\`, `,`, `=` and space).
 */
function leadingKeyPart(resourceId: string): string {
  let value = "";
  for (let index = 0; index < resourceId.length; index++) {
    const character = resourceId[index]!;
    if (character === ",") break;
    if (character === "\\") index++;
    value += resourceId[index] ?? "";
  }
  return value;
}

const keySyntax = /[\\,]/;

/**
 * Whether an agent's resourceId begins with its primary label's value: the key of a series without
 * one is `-` (no labels) or begins with a `name=value` pair, whose `=` no backslash escapes.
 */
function hasPrimaryLabel(resourceId: string): boolean {
  if (resourceId === "-") return false;
  for (let index = 0; index < resourceId.length; index++) {
    const character = resourceId[index];
    if (character === "\\") index++;
    else if (character === ",") return true;
    else if (character === "=") return false;
  }
  return true;
}

/**
 * The resource a datum is about, as a selection through the model reads it: the resourceId of data
 * without labels (RDF/JSON, the data collectors, rules), the primary label's value of an agent's
 * (`labelled`) datum, and none for an agent's datum without a primary label (its key is only labels).
 */
export function datumResource(resourceId: string, labelled: boolean): string | undefined {
  if (!labelled) return resourceId;
  if (!hasPrimaryLabel(resourceId)) return undefined;
  return keySyntax.test(resourceId) ? leadingKeyPart(resourceId) : resourceId;
}
