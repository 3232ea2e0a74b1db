import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configSchema } from "./config";

describe("configSchema", () => {
  it.each([
    ["true", true],
    [" TRUE ", true],
    ["false", false],
    ["yes", false],
    [undefined, false],
  ])("reads AUTH_DISABLED=%s as %s: anything but true keeps authentication on", (value, disabled) => {
    expect(configSchema.parse({ ...env, AUTH_DISABLED: value }).AUTH_DISABLED).toBe(disabled);
  });

  it("falls back to the default for a limit that is not a positive integer", () => {
    expect(configSchema.parse({ ...env, MAX_BODY_BYTES: "lots" }).MAX_BODY_BYTES).toBe(1_048_576);
    expect(configSchema.parse({ ...env, MAX_DATA_PER_REQUEST: "25" }).MAX_DATA_PER_REQUEST).toBe(25);
  });
});
