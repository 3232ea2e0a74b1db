import { z } from "zod";
import { parseRange } from "../shared/ip-ranges.ts";
import { maxUdpPayloadBytes } from "./udp-sender.ts";

/** An unset and an empty variable both mean "use the default". */
const setting = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema);

const integer = (min: number, max: number, fallback: number) =>
  setting(z.coerce.number().int().min(min).max(max).default(fallback));

const milliseconds = (fallback: number) => integer(1, 3_600_000, fallback);

const flag = setting(
  z
    .enum(["true", "false"], { error: 'expected "true" or "false"' })
    .default("false")
    .transform((value) => value === "true"),
);

const rangeList = setting(
  z
    .string()
    .default("")
    .transform((text, context) =>
      text
        .split(",")
        .filter((item) => item.trim() !== "")
        .flatMap((item) => {
          try {
            return [parseRange(item)];
          } catch (error) {
            context.addIssue({ code: "custom", message: (error as Error).message });
            return [];
          }
        }),
    ),
);

/** The relay's environment variables; every one but RELAY_TOKEN has a default. */
export const relayEnvSchema = z.object({
  /** 0 picks a free port (tests). */
  RELAY_PORT: integer(0, 65_535, 8788),
  RELAY_HOST: setting(z.string().default("127.0.0.1")),
  RELAY_TOKEN: setting(
    z.string({
      error: "is required: the bearer token the Worker sends (its RELAY_TOKEN secret); the relay does not run open",
    }),
  ),
  RELAY_MAX_DATAGRAM_BYTES: integer(1, maxUdpPayloadBytes, 1_400),
  RELAY_ALLOW: rangeList,
  RELAY_DENY: rangeList,
  RELAY_ALLOW_PRIVATE: flag,
  RELAY_CONNECT_TIMEOUT_MS: milliseconds(5_000),
  RELAY_WRITE_TIMEOUT_MS: milliseconds(10_000),
  RELAY_IDLE_TIMEOUT_MS: milliseconds(300_000),
  RELAY_SHUTDOWN_TIMEOUT_MS: milliseconds(10_000),
  RELAY_MAX_BODY_BYTES: integer(1, 1 << 30, 8 * 1024 * 1024),
  RELAY_MAX_QUEUED_BYTES: integer(1, 1 << 30, 32 * 1024 * 1024),
});

export const relayConfigSchema = relayEnvSchema.transform((env) => ({
  port: env.RELAY_PORT,
  host: env.RELAY_HOST,
  token: env.RELAY_TOKEN.trim(),
  maxDatagramBytes: env.RELAY_MAX_DATAGRAM_BYTES,
  allow: env.RELAY_ALLOW,
  deny: env.RELAY_DENY,
  allowPrivate: env.RELAY_ALLOW_PRIVATE,
  connectTimeoutMs: env.RELAY_CONNECT_TIMEOUT_MS,
  writeTimeoutMs: env.RELAY_WRITE_TIMEOUT_MS,
  idleTimeoutMs: env.RELAY_IDLE_TIMEOUT_MS,
  shutdownTimeoutMs: env.RELAY_SHUTDOWN_TIMEOUT_MS,
  maxBodyBytes: env.RELAY_MAX_BODY_BYTES,
  maxQueuedBytesPerDestination: env.RELAY_MAX_QUEUED_BYTES,
}));

export type RelayConfig = z.output<typeof relayConfigSchema>;

export class RelayConfigError extends Error {
  override readonly name = "RelayConfigError";
}

/** Reads the configuration from environment variables; throws one message naming every bad variable. */
export function readRelayConfig(env: Record<string, string | undefined>): RelayConfig {
  const result = relayConfigSchema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new RelayConfigError(`invalid relay configuration:\n${lines.join("\n")}`);
}
