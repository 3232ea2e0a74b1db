import { describe, expect, it, vi } from "vitest";
import { SettingsError } from "../../src/shared/settings.ts";
import { launch } from "./launch.ts";

/*
 * What launch() refuses before it starts anything; what it starts is tested through the launchers
 * themselves (start.test.ts, dev.test.ts). A free RELAY_PORT is never reached: nothing listens.
 */

/** The problems launch() names for `env`, having started no Worker. */
async function refusal(env: NodeJS.ProcessEnv): Promise<SettingsError> {
  const startWorker = vi.fn();
  const error = await launch(env, startWorker).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(startWorker).not.toHaveBeenCalled();
  expect(error).toBeInstanceOf(SettingsError);
  return error as SettingsError;
}

describe("launch", () => {
  it("refuses the settings the Worker would refuse, each with the form it expects, in the Worker's words", async () => {
    const error = await refusal({ AUTH_DISABLED: "yes", MAX_BODY_BYTES: "1MB", RETRY_SCHEDULE: "5,later" });
    expect(error.message).toBe(
      [
        "invalid Worker configuration:",
        '  AUTH_DISABLED: expected "true" or "false"',
        "  MAX_BODY_BYTES: expected a whole number of bytes from 1 to 104857600, such as 1048576",
        "  RETRY_SCHEDULE: expected comma-separated numbers of seconds, at least one, each from 0 to 604800, such as 5,30,120",
      ].join("\n"),
    );
  });

  it("refuses its own bad settings", async () => {
    const error = await refusal({ PORT: "eighty", LOG_LEVEL: "loud" });
    expect(error.problems).toEqual([
      "PORT: expected a whole number from 1 to 65535, such as 8787",
      'LOG_LEVEL: expected "info" or "debug"',
    ]);
  });
});
