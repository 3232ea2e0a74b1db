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

export const integerSetting = (min: number, max: number, fallback: number) =>
  setting(z.coerce.number().int().min(min).max(max).default(fallback));

export const numberSetting = (min: number, max: number, fallback: number) =>
  setting(z.coerce.number().min(min).max(max).default(fallback));

/** "true" or "false" in any case; a misspelt flag is an error, never silently read as either. */
export const flagSetting = (fallback: boolean) =>
  setting(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(["true", "false"], { error: 'expected "true" or "false"' }))
      .default(fallback ? "true" : "false")
      .transform((value) => value === "true"),
  );

export const textSetting = (fallback: string) => setting(z.string().trim().default(fallback));

/** A comma-separated list; blank items are skipped. */
export const listSetting = () =>
  setting(
    z
      .string()
      .default("")
      .transform((text) =>
        text
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      ),
  );

/** A comma-separated list of numbers from `min` to `max`, at least one; blank items are skipped. */
export const numberListSetting = (min: number, max: number, fallback: readonly number[]) =>
  setting(
    z
      .string()
      .transform((text) =>
        text
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      )
      .pipe(z.array(z.coerce.number<string>().min(min).max(max)).min(1))
      .default([...fallback]),
  );

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

/** Reads `env` with `schema`; throws one SettingsError naming every bad variable. */
export function readSettings<S extends z.ZodType>(schema: S, env: unknown, what: string): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new SettingsError(
    what,
    result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
  );
}
