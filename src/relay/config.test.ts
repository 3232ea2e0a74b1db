import { expect, it } from "vitest";
import { parseRange } from "../shared/ip-ranges.ts";
import { readRelayConfig } from "./config.ts";

it("fills every setting but the token with its default, empty variables included", () => {
  expect(readRelayConfig({ RELAY_TOKEN: " secret ", RELAY_PORT: "", RELAY_ALLOW: "" })).toEqual({
    port: 8788,
    host: "127.0.0.1",
    token: "secret",
    maxDatagramBytes: 1400,
    allow: [],
    deny: [],
    allowPrivate: false,
    connectTimeoutMs: 5_000,
    writeTimeoutMs: 10_000,
    idleTimeoutMs: 300_000,
    shutdownTimeoutMs: 10_000,
    maxBodyBytes: 8 * 1024 * 1024,
    maxQueuedBytesPerDestination: 32 * 1024 * 1024,
  });
});

it("reads every variable", () => {
  const config = readRelayConfig({
    RELAY_PORT: "9000",
    RELAY_HOST: "::",
    RELAY_TOKEN: "t",
    RELAY_MAX_DATAGRAM_BYTES: "512",
    RELAY_ALLOW: "10.1.0.0/16, fd00::/8",
    RELAY_DENY: "10.1.2.0/24",
    RELAY_ALLOW_PRIVATE: "true",
    RELAY_CONNECT_TIMEOUT_MS: "1000",
    RELAY_WRITE_TIMEOUT_MS: "2000",
    RELAY_IDLE_TIMEOUT_MS: "3000",
    RELAY_SHUTDOWN_TIMEOUT_MS: "4000",
    RELAY_MAX_BODY_BYTES: "5000",
    RELAY_MAX_QUEUED_BYTES: "6000",
  });

  expect(config).toEqual({
    port: 9000,
    host: "::",
    token: "t",
    maxDatagramBytes: 512,
    allow: [parseRange("10.1.0.0/16"), parseRange("fd00::/8")],
    deny: [parseRange("10.1.2.0/24")],
    allowPrivate: true,
    connectTimeoutMs: 1000,
    writeTimeoutMs: 2000,
    idleTimeoutMs: 3000,
    shutdownTimeoutMs: 4000,
    maxBodyBytes: 5000,
    maxQueuedBytesPerDestination: 6000,
  });
});

it("refuses to run without a token, naming every bad variable", () => {
  expect(() =>
    readRelayConfig({
      RELAY_TOKEN: "   ",
      RELAY_PORT: "http",
      RELAY_MAX_DATAGRAM_BYTES: "70000",
      RELAY_DENY: "10.0.0.0/8,10.0.0/8",
      RELAY_ALLOW_PRIVATE: "yes",
    }),
  ).toThrow(
    [
      "invalid relay configuration:",
      "  RELAY_PORT: expected a whole number from 0 to 65535, such as 8788",
      "  RELAY_TOKEN: is required: the bearer token the Worker sends (its RELAY_TOKEN secret); the relay does not run open",
      "  RELAY_MAX_DATAGRAM_BYTES: expected a whole number from 1 to 65507, such as 1400",
      '  RELAY_DENY: "10.0.0/8" is not an IP address range (expected e.g. 10.0.0.0/8 or fd00::/8)',
      '  RELAY_ALLOW_PRIVATE: expected "true" or "false"',
    ].join("\n"),
  );
});
