import { z } from "zod";
import { protocols } from "./receivers.ts";

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

/** `npm run bench` settings, from environment variables; the defaults fit a full run in 10 minutes on 2 cores. */
export const benchSettingsSchema = z
  .object({
    /** Seconds each intake row and each delivery case posts for. */
    BENCH_SECONDS: positive(6),
    /** Clients of the closed-loop intake load. */
    BENCH_CONCURRENCY: z.coerce.number().int().positive().default(32),
    /**
     * Data/s posted to one metric in a delivery case: 10% above the 20,000 data/s target, so that
     * the delivered rate can show the target met and not only approached...
     */
    BENCH_DELIVERY_RATE: positive(22_000),
    /** ...unless that many deliveries/s (rate × observers) would exceed this. */
    BENCH_FANOUT_RATE: positive(220_000),
    BENCH_OBSERVERS: list(z.coerce.number().int().min(1).max(100), "1,10,100"),
    BENCH_PROTOCOLS: list(z.enum(protocols), protocols.join(",")),
    /** Where an InfluxDB 1.x to compare with may answer; without one the comparison is skipped. */
    BENCH_INFLUXDB_URL: z.url().default("http://127.0.0.1:8086"),
  })
  .transform((env) => ({
    seconds: env.BENCH_SECONDS,
    concurrency: env.BENCH_CONCURRENCY,
    deliveryRate: env.BENCH_DELIVERY_RATE,
    fanOutRate: env.BENCH_FANOUT_RATE,
    observerCounts: env.BENCH_OBSERVERS,
    protocols: env.BENCH_PROTOCOLS,
    influxDbUrl: env.BENCH_INFLUXDB_URL,
  }));

export type BenchSettings = z.output<typeof benchSettingsSchema>;
