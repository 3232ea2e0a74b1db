import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  choiceSetting,
  flagSetting,
  integerSetting,
  listSetting,
  numberListSetting,
  numberSetting,
  readSettings,
  SettingsError,
  textSetting,
} from "./settings.ts";

/** The problems readSettings reports for `env` under `schema`, or [] when it reads it. */
function problemsOf(schema: z.ZodType, env: Record<string, unknown>): readonly string[] {
  try {
    readSettings(schema, env, "test");
    return [];
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    return error.problems;
  }
}

describe("the settings' defaults", () => {
  const schema = z.object({
    SIZE: integerSetting(1, 10, 5),
    HOURS: numberSetting(0, 10, 1.5),
    ON: flagSetting(true),
    NAME: textSetting("x"),
    ITEMS: listSetting(),
    WAITS: numberListSetting(0, 60, [1, 2]),
  });

  it.each([{}, { SIZE: "", HOURS: " ", ON: "", NAME: "  ", ITEMS: "", WAITS: "" }])(
    "take the default of every unset or blank variable (%o)",
    (env) => {
      expect(readSettings(schema, env, "test")).toEqual({
        SIZE: 5,
        HOURS: 1.5,
        ON: true,
        NAME: "x",
        ITEMS: [],
        WAITS: [1, 2],
      });
    },
  );
});

describe("the messages refusing a value", () => {
  it.each(["1MB", "1.5", "0", "100000001", "lots"])(
    "say which whole numbers an integer setting takes, in its unit, with an example (%s)",
    (value) => {
      const schema = z.object({ MAX_BODY_BYTES: integerSetting(1, 100_000_000, 1_048_576, "bytes") });
      expect(problemsOf(schema, { MAX_BODY_BYTES: value })).toEqual([
        "MAX_BODY_BYTES: expected a whole number of bytes from 1 to 100000000, such as 1048576",
      ]);
    },
  );

  it("leave the unit out when a setting has none", () => {
    expect(problemsOf(z.object({ COUNT: integerSetting(1, 9, 3) }), { COUNT: "x" })).toEqual([
      "COUNT: expected a whole number from 1 to 9, such as 3",
    ]);
  });

  it.each(["soon", "-1", "8761"])("say which numbers a number setting takes (%s)", (value) => {
    expect(problemsOf(z.object({ HOURS: numberSetting(0, 8_760, 168, "hours") }), { HOURS: value })).toEqual([
      "HOURS: expected a number of hours from 0 to 8760, such as 168",
    ]);
  });

  it.each(["yes", "1", "on"])("say what a flag takes (%s)", (value) => {
    expect(problemsOf(z.object({ ON: flagSetting(false) }), { ON: value })).toEqual(['ON: expected "true" or "false"']);
  });

  it("list the choices of a choice setting, and read one in any letter case", () => {
    const schema = z.object({ LEVEL: choiceSetting(["low", "mid", "high"], "mid") });
    expect(problemsOf(schema, { LEVEL: "max" })).toEqual(['LEVEL: expected "low", "mid" or "high"']);
    expect(readSettings(schema, { LEVEL: " HIGH " }, "test")).toEqual({ LEVEL: "high" });
  });

  it.each([" , ", "5, soon", "-1", "61"])("say what a list of numbers takes (%o)", (value) => {
    const schema = z.object({ WAITS: numberListSetting(0, 60, [5, 30, 60, 60], "seconds") });
    expect(problemsOf(schema, { WAITS: value })).toEqual([
      "WAITS: expected comma-separated numbers of seconds, at least one, each from 0 to 60, such as 5,30,60",
    ]);
  });

  it("say that a text setting takes text, when given something else", () => {
    const schema = z.object({ NAME: textSetting(""), ITEMS: listSetting() });
    expect(problemsOf(schema, { NAME: 5, ITEMS: true })).toEqual(["NAME: expected text", "ITEMS: expected text"]);
  });
});

describe("readSettings", () => {
  const schema = z.object({ A: integerSetting(1, 9, 3), B: flagSetting(false), C: integerSetting(1, 9, 3) });

  it("names every bad variable once, in the schema's order, in one SettingsError", () => {
    expect(() => readSettings(schema, { C: "10.5", B: "maybe", A: "0" }, "demo")).toThrow(
      [
        "invalid demo configuration:",
        "  A: expected a whole number from 1 to 9, such as 3",
        '  B: expected "true" or "false"',
        "  C: expected a whole number from 1 to 9, such as 3",
      ].join("\n"),
    );
  });

  it("reads valid values", () => {
    expect(readSettings(schema, { A: " 7 ", B: "TRUE" }, "demo")).toEqual({ A: 7, B: true, C: 3 });
  });
});
