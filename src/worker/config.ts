import { z } from "zod";

/** Only "true" turns a flag on: a misspelt AUTH_DISABLED leaves authentication on. */
const flag = z
  .string()
  .optional()
  .transform((value) => value?.trim().toLowerCase() === "true");
const positiveInt = (fallback: number) => z.coerce.number().int().positive().catch(fallback);
const tokenList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((token) => token.trim())
      .filter((token) => token.length > 0),
  );

/** Runtime settings read from the Worker's vars and secrets; the names are API.md's. */
export const configSchema = z.object({
  AUTH_DISABLED: flag,
  ALLOW_PRIVATE_OBSERVERS: flag,
  ADMIN_TOKEN: tokenList,
  INGEST_TOKEN: tokenList,
  MAX_BODY_BYTES: positiveInt(1_048_576),
  MAX_DATA_PER_REQUEST: positiveInt(10_000),
  MAX_OBSERVERS_PER_METRIC: positiveInt(100),
  MAX_METRIC_NAME_LENGTH: positiveInt(256),
  DELIVERY_TIMEOUT_MS: positiveInt(10_000),
  DELIVERY_MAX_ATTEMPTS: positiveInt(8),
  RETRY_BASE_DELAY_SECONDS: z.coerce.number().nonnegative().catch(2),
  RETRY_MAX_DELAY_SECONDS: z.coerce.number().nonnegative().catch(3_600),
  RELAY_URL: z.string().optional().default(""),
  RELAY_TOKEN: z.string().optional().default(""),
});

export type Config = z.output<typeof configSchema>;

const cache = new WeakMap<object, Config>();

/** Parses the environment once per isolate and env object. */
export function readConfig(env: Env): Config {
  let config = cache.get(env);
  if (!config) {
    config = configSchema.parse(env);
    cache.set(env, config);
  }
  return config;
}
