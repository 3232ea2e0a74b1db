import { z } from "zod";

/*
 * Settings come from environment variables (the Worker's vars and secrets, the relay's process
 * environment) and are read with one policy in both processes: an unset or blank variable takes
 * the default written beside its schema, and any other value that is not valid stops the process
 * from serving, with one message that names every bad variable.
 */

/** An unset and a blank variable both mean "use the default". */
export const setting = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema);

/** " of bytes" for the unit "bytes", in the messages that refuse a value. */
const ofUnit = (unit: string | undefined) => (unit ? ` of ${unit}` : "");

/**
 * A whole number from `min` to `max`; `unit` (e.g. "bytes") names what it counts in the message
 * that refuses any other value, which also gives the default as an example.
 */
export const integerSetting = (min: number, max: number, fallback: number, unit?: string) => {
  const error = `expected a whole number${ofUnit(unit)} from ${min} to ${max}, such as ${fallback}`;
  return setting(z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error }).default(fallback));
};

/** A number from `min` to `max`, decimals allowed; `unit` as for integerSetting. */
export const numberSetting = (min: number, max: number, fallback: number, unit?: string) => {
  const error = `expected a number${ofUnit(unit)} from ${min} to ${max}, such as ${fallback}`;
  return setting(z.coerce.number({ error }).min(min, { error }).max(max, { error }).default(fallback));
};

/**
 * One of `choices`, in any letter case; the message that refuses any other value lists them.
 * Misspelt, it is an error, never silently read as one of them.
 */
export const choiceSetting = <const C extends readonly [string, ...string[]]>(choices: C, fallback: C[number]) => {
  const quoted = choices.map((choice) => `"${choice}"`);
  const error = `expected ${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
  return setting(z.string({ error }).trim().toLowerCase().pipe(z.enum(choices, { error })).default(fallback));
};

/** "true" or "false" in any case. */
export const flagSetting = (fallback: boolean) =>
  choiceSetting(["true", "false"], fallback ? "true" : "false").transform((value) => value === "true");

const textExpected = "expected text";

export const textSetting = (fallback: string) => setting(z.string({ error: textExpected }).trim().default(fallback));

/** A comma-separated list; blank items are skipped. */
export const listSetting = () =>
  setting(
    z
      .string({ error: textExpected })
      .default("")
      .transform((text) =>
        text
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      ),
  );

/**
 * A comma-separated list of numbers from `min` to `max`, at least one; blank items are skipped.
 * `unit` as for integerSetting.
 */
export const numberListSetting = (min: number, max: number, fallback: readonly number[], unit?: string) => {
  const error =
    `expected comma-separated numbers${ofUnit(unit)}, at least one, each from ${min} to ${max}, ` +
    `such as ${fallback.slice(0, 3).join(",")}`;
  return setting(
    z
      .string({ error })
      .transform((text) =>
        text
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      )
      .pipe(z.array(z.coerce.number<string>({ error }).min(min, { error }).max(max, { error })).min(1, { error }))
      .default([...fallback]),
  );
};

export class SettingsError extends Error {
  override readonly name = "SettingsError";

  constructor(
    what: string,
    /** One line per bad variable: `NAME: what is wrong`. */
    readonly problems: readonly string[],
  ) {
    super(`invalid ${what} configuration:\n${problems.map((problem) => `  ${problem}`).join("\n")}`);
  }
}

/**
 * Reads `env` with `schema`; throws one SettingsError naming every bad variable once, with the
 * first of its problems (one value can break several rules of one setting, which all say the same).
 */
export function readSettings<S extends z.ZodType>(schema: S, env: unknown, what: string): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = new Map<string, string>();
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? "");
    if (!problems.has(name)) problems.set(name, `${name}: ${issue.message}`);
  }
  throw new SettingsError(what, [...problems.values()]);
}
