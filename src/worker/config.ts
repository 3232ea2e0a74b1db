import { z } from "zod";
import {
  flagSetting,
  integerSetting,
  listSetting,
  numberListSetting,
  numberSetting,
  readSettings,
  SettingsError,
  textSetting,
} from "../shared/settings.ts";

function isHttpUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * The Worker's settings (vars and secrets) with their defaults: the only place the defaults are
 * written. wrangler.toml sets none of them, and the local launcher passes through any of these
 * names it finds in its environment.
 */
export const configSchema = z.object({
  /** Runs without authentication (local development only). */
  AUTH_DISABLED: flagSetting(false),
  /** Lets observers point at loopback and private addresses (local development). */
  ALLOW_PRIVATE_OBSERVERS: flagSetting(false),
  /** Comma-separated; several tokens per role allow rotation. */
  ADMIN_TOKEN: listSetting(),
  INGEST_TOKEN: listSetting(),
  MAX_BODY_BYTES: integerSetting(1, 100 * 1024 * 1024, 1_048_576, "bytes"),
  MAX_DATA_PER_REQUEST: integerSetting(1, 1_000_000, 10_000),
  /** The agent routes' limit on a body once decompressed (gzip, snappy). */
  MAX_DECOMPRESSED_BYTES: integerSetting(1, 1024 * 1024 * 1024, 32 * 1024 * 1024),
  /** The agent routes' limit on data per request: a Telegraf backlog flush fits. */
  MAX_AGENT_DATA_PER_REQUEST: integerSetting(1, 10_000_000, 100_000),
  MAX_OBSERVERS_PER_METRIC: integerSetting(1, 100_000, 100),
  MAX_METRIC_NAME_LENGTH: integerSetting(1, 1_024, 256, "characters"),
  /** How long one delivery attempt may take before it counts as failed. */
  DELIVERY_TIMEOUT_MS: integerSetting(1, 600_000, 10_000, "milliseconds"),
  /**
   * How long a batch starts its direct deliveries, and the longest it waits for an HTTP payload (an
   * observer that answered quickly before is waited for less): what an observer has not taken in
   * time moves to its backlog, so a slow observer does not hold up the others for long.
   */
  DELIVERY_BUDGET_MS: integerSetting(1, 600_000, 2_000, "milliseconds"),
  /**
   * How long a metric's object lets a consumer reuse its plan when only selector observers follow
   * it, instead of asking again every batch (0: never): its counts and recent data lag by about
   * this much. A registration that changes such a plan revokes the leases rather than wait for them.
   */
  PLAN_LEASE_MS: integerSetting(0, 600_000, 30_000, "milliseconds"),
  /** Seconds between the attempts at undelivered data; the whole schedule is how long data are tried. */
  RETRY_SCHEDULE: numberListSetting(
    0,
    7 * 86_400,
    [5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800, 28_800],
    "seconds",
  ),
  /** How long dead data (tried for the whole schedule) are kept for replay before they are dropped. */
  DEAD_RETENTION_HOURS: numberSetting(0, 24 * 365, 168, "hours"),
  /** Most data one observer's backlog (undelivered and dead) holds; past it the oldest are dropped. */
  MAX_BACKLOG_DATA: integerSetting(1, 100_000_000, 1_000_000),
  /** An observer failing for this long without a success is disabled. */
  DISABLE_AFTER_HOURS: numberSetting(0, 24 * 365, 120, "hours"),
  /** How long a replaced secret still signs deliveries beside the new one. */
  SECRET_ROTATION_HOURS: numberSetting(0, 24 * 365, 24, "hours"),
  /** The relay's base URL; without it TCP and UDP deliveries wait in the retry path. */
  RELAY_URL: textSetting("").refine(
    (url) => url === "" || isHttpUrl(url),
    "expected an http or https URL, such as http://127.0.0.1:8788",
  ),
  RELAY_TOKEN: textSetting(""),
  /**
   * The service's public base URL, for a service behind a proxy: the data collectors' stream
   * addresses start with it. Empty: the origin of the collector's own request.
   */
  PUBLIC_URL: textSetting("").refine(
    (url) => url === "" || isHttpUrl(url),
    "expected an http or https URL, such as https://monitoring.example.com",
  ),
});

export type Config = z.output<typeof configSchema>;

/** The names of the Worker's settings. */
export const settingNames = Object.keys(configSchema.shape) as (keyof Config)[];

const cache = new WeakMap<object, Config | SettingsError>();

/**
 * Reads the settings once per env object (an isolate keeps one). A bad setting is not replaced by
 * its default: readConfig throws a SettingsError naming each bad variable, so the service answers
 * every request 503 and its queue consumers fail until the setting is fixed, rather than quietly
 * doing something else than configured.
 */
export function readConfig(env: object): Config {
  let reading = cache.get(env);
  if (!reading) {
    try {
      reading = readSettings(configSchema, env, "Worker");
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      reading = error;
    }
    cache.set(env, reading);
  }
  if (reading instanceof SettingsError) throw reading;
  return reading;
}
