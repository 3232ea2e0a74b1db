import { describe, expect, it } from "vitest";
import { benchEnvironment, benchSettingsSchema } from "./settings.ts";

describe("the bench's command line", () => {
  it("leaves the environment as it is without arguments", () => {
    const env = { BENCH_SOAK_SECONDS: "60" };
    expect(benchEnvironment([], env)).toBe(env);
  });

  it("runs the soak alone for the seconds --soak gives", () => {
    const settings = benchSettingsSchema.parse(benchEnvironment(["--soak", "1800"], { BENCH_SECTIONS: "intake" }));
    expect([...settings.sections]).toEqual(["soak"]);
    expect(settings.soakSeconds).toBe(1800);
  });

  it("refuses anything else", () => {
    for (const args of [["--soak"], ["--soak", "0"], ["--soak", "ten"], ["--soak", "60", "extra"], ["--other", "1"]]) {
      expect(() => benchEnvironment(args, {})).toThrow(/usage/);
    }
  });
});
