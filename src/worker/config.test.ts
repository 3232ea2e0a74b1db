import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SettingsError } from "../shared/settings";
import { configSchema, readConfig } from "./config";

describe("configSchema", () => {
  it.each([
    ["true", true],
    [" TRUE ", true],
    ["false", false],
    ["", false],
    [undefined, false],
  ])("reads AUTH_DISABLED=%s as %s", (value, disabled) => {
    expect(configSchema.parse({ ...env, AUTH_DISABLED: value }).AUTH_DISABLED).toBe(disabled);
  });

  it("gives every setting its default when unset", () => {
    expect(configSchema.parse({})).toEqual({
      AUTH_DISABLED: false,
      ALLOW_PRIVATE_OBSERVERS: false,
      ADMIN_TOKEN: [],
      INGEST_TOKEN: [],
      MAX_BODY_BYTES: 1_048_576,
      MAX_DATA_PER_REQUEST: 10_000,
      MAX_DECOMPRESSED_BYTES: 33_554_432,
      MAX_AGENT_DATA_PER_REQUEST: 100_000,
      MAX_OBSERVERS_PER_METRIC: 100,
      MAX_METRIC_NAME_LENGTH: 256,
      PLAN_LEASE_MS: 30_000,
      DELIVERY_TIMEOUT_MS: 10_000,
      DELIVERY_BUDGET_MS: 2_000,
      RETRY_SCHEDULE: [5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 28_800, 28_800],
      DEAD_RETENTION_HOURS: 168,
      MAX_BACKLOG_DATA: 1_000_000,
      DISABLE_AFTER_HOURS: 120,
      SECRET_ROTATION_HOURS: 24,
      RELAY_URL: "",
      RELAY_TOKEN: "",
      PUBLIC_URL: "",
    });
  });

  it("reads a valid value", () => {
    expect(configSchema.parse({ MAX_DATA_PER_REQUEST: "25" }).MAX_DATA_PER_REQUEST).toBe(25);
    expect(configSchema.parse({ ADMIN_TOKEN: "a, b,," }).ADMIN_TOKEN).toEqual(["a", "b"]);
    expect(configSchema.parse({ RETRY_SCHEDULE: "1, 2.5 ,60" }).RETRY_SCHEDULE).toEqual([1, 2.5, 60]);
  });

  it("skips blank items of the retry schedule instead of reading them as 0", () => {
    expect(configSchema.parse({ RETRY_SCHEDULE: "5,,30," }).RETRY_SCHEDULE).toEqual([5, 30]);
  });

  it.each([" , ", "5, soon", "-1", "604801"])("refuses the retry schedule %o", (schedule) => {
    expect(configSchema.safeParse({ RETRY_SCHEDULE: schedule }).success).toBe(false);
  });
});

describe("readConfig", () => {
  it("refuses bad settings instead of falling back to defaults, naming every bad variable", () => {
    const bad = { AUTH_DISABLED: "yes", MAX_BODY_BYTES: "lots", RELAY_URL: "relay:8788 no", MAX_BACKLOG_DATA: "0" };
    expect(() => readConfig(bad)).toThrow(SettingsError);
    try {
      readConfig(bad);
    } catch (error) {
      const { problems } = error as SettingsError;
      expect(problems.map((problem) => problem.split(":")[0])).toEqual([
        "AUTH_DISABLED",
        "MAX_BODY_BYTES",
        "MAX_BACKLOG_DATA",
        "RELAY_URL",
      ]);
    }
  });

  it("reads an env object once", () => {
    const settings = { MAX_DATA_PER_REQUEST: "7" };
    expect(readConfig(settings)).toBe(readConfig(settings));
  });
});
