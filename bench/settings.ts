import { z } from "zod";
import { protocols } from "./load/receivers/receivers.ts";

/** The report's sections, in the order they run and appear; the Targets table follows them. */
export const sectionNames = [
  "intake",
  "operations",
  "delivery",
  "four-observers",
  "profile",
  "rules",
  "isolation",
  "soak",
  "selectors",
  "backends",
  "agents",
] as const;
export type BenchSectionName = (typeof sectionNames)[number];

const positive = (fallback: number) => z.coerce.number().positive().default(fallback);
/** A comma-separated list. */
const list = <T extends z.ZodType>(item: T, fallback: string) =>
  z.preprocess(
    (text = fallback) =>
      String(text)
        .split(",")
        .map((entry) => entry.trim()),
    z.array(item).min(1),
  );

/**
 * `npm run bench` settings, from environment variables; with the defaults a full run takes about
 * eleven minutes on 2 cores, the soak's 200 s and the backends section's minute included.
 */
export const benchSettingsSchema = z
  .object({
    /** The sections to run, e.g. `intake,soak` (any order; they run in the report's); all by default. */
    BENCH_SECTIONS: list(z.enum(sectionNames), sectionNames.join(",")),
    /** Seconds each intake row and each delivery case posts for. */
    BENCH_SECONDS: positive(6),
    /** Clients of the closed-loop intake load. */
    BENCH_CONCURRENCY: z.coerce.number().int().positive().default(32),
    /** Seconds each case of the rules section (no rule, one rule, ten rules) posts for. */
    BENCH_RULES_SECONDS: positive(4),
    /**
     * Data/s posted to one metric in a delivery case: 10% above the 20,000 data/s target, so that
     * the delivered rate can show the target met and not only approached...
     */
    BENCH_DELIVERY_RATE: positive(22_000),
    /** ...unless that many deliveries/s (rate × observers) would exceed this. */
    BENCH_FANOUT_RATE: positive(220_000),
    BENCH_OBSERVERS: list(z.coerce.number().int().min(1).max(100), "1,10,100"),
    /**
     * Data/s posted in 1,000-datum requests to the metric of the four HTTP observers (the
     * four-observers section): 10% above the 160,000 data/s per observer target.
     */
    BENCH_FOUR_OBSERVERS_RATE: positive(176_000),
    /** Seconds each profile case posts for (the profile then runs on until the queue is drained). */
    BENCH_PROFILE_SECONDS: positive(5),
    /** Seconds the soak measures memory for, after its warm-up of 20 s at the same rate. */
    BENCH_SOAK_SECONDS: positive(180),
    /** Data/s of the soak's open loop, in 1,000-datum requests. */
    BENCH_SOAK_RATE: positive(20_000),
    BENCH_PROTOCOLS: list(z.enum(protocols), protocols.join(",")),
    /** Where an InfluxDB 1.x to compare with may answer; without one the comparison is skipped. */
    BENCH_INFLUXDB_URL: z.url().default("http://127.0.0.1:8086"),
    /** Samples through each system of the backends section's pipeline hop (in bodies of 2,000). */
    BENCH_BACKENDS_SAMPLES: positive(1_000_000),
    /** The vmagent that hop is compared with (Debian's `victoria-metrics` package); without one that half is skipped. */
    BENCH_VMAGENT: z.string().min(1).default("/usr/bin/vmagent"),
  })
  .transform((env) => ({
    sections: new Set(env.BENCH_SECTIONS),
    seconds: env.BENCH_SECONDS,
    concurrency: env.BENCH_CONCURRENCY,
    rulesSeconds: env.BENCH_RULES_SECONDS,
    deliveryRate: env.BENCH_DELIVERY_RATE,
    fanOutRate: env.BENCH_FANOUT_RATE,
    observerCounts: env.BENCH_OBSERVERS,
    fourObserversRate: env.BENCH_FOUR_OBSERVERS_RATE,
    profileSeconds: env.BENCH_PROFILE_SECONDS,
    soakSeconds: env.BENCH_SOAK_SECONDS,
    soakRate: env.BENCH_SOAK_RATE,
    protocols: env.BENCH_PROTOCOLS,
    influxDbUrl: env.BENCH_INFLUXDB_URL,
    backendsSamples: env.BENCH_BACKENDS_SAMPLES,
    vmagentBinary: env.BENCH_VMAGENT,
  }));

export type BenchSettings = z.output<typeof benchSettingsSchema>;

/**
 * The environment the settings are read from, with the command line's say: `--soak SECONDS` runs
 * the soak section alone for that long (e.g. `npm run bench -- --soak 1800`).
 */
export function benchEnvironment(args: readonly string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (args.length === 0) return env;
  const [flag, seconds, ...rest] = args;
  if (flag !== "--soak" || seconds === undefined || rest.length > 0 || !(Number(seconds) > 0)) {
    throw new Error(`usage: npm run bench [-- --soak SECONDS]; got ${args.join(" ")}`);
  }
  return { ...env, BENCH_SECTIONS: "soak", BENCH_SOAK_SECONDS: seconds };
}
