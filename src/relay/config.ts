import { z } from "zod";
import { parseRange } from "../shared/ip-ranges.ts";
import { flagSetting, integerSetting, readSettings, setting, textSetting } from "../shared/settings.ts";
import { maxUdpPayloadBytes } from "./udp-sender.ts";

const milliseconds = (fallback: number) => integerSetting(1, 3_600_000, fallback);

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
  RELAY_PORT: integerSetting(0, 65_535, 8788),
  RELAY_HOST: textSetting("127.0.0.1"),
  RELAY_TOKEN: setting(
    z.string({
      error: "is required: the bearer token the Worker sends (its RELAY_TOKEN secret); the relay does not run open",
    }),
  ),
  RELAY_MAX_DATAGRAM_BYTES: integerSetting(1, maxUdpPayloadBytes, 1_400),
  RELAY_ALLOW: rangeList,
  RELAY_DENY: rangeList,
  RELAY_ALLOW_PRIVATE: flagSetting(false),
  RELAY_CONNECT_TIMEOUT_MS: milliseconds(5_000),
  RELAY_WRITE_TIMEOUT_MS: milliseconds(10_000),
  RELAY_IDLE_TIMEOUT_MS: milliseconds(300_000),
  RELAY_SHUTDOWN_TIMEOUT_MS: milliseconds(10_000),
  RELAY_MAX_BODY_BYTES: integerSetting(1, 1 << 30, 8 * 1024 * 1024),
  RELAY_MAX_QUEUED_BYTES: integerSetting(1, 1 << 30, 32 * 1024 * 1024),
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

/** Reads the configuration from environment variables; throws one SettingsError naming every bad variable. */
export function readRelayConfig(env: Record<string, string | undefined>): RelayConfig {
  return readSettings(relayConfigSchema, env, "relay");
}
