import { describe, expect, it } from "vitest";
import { parseLine } from "../load/line-protocol.ts";
import { rdfJsonBodies } from "../load/requests/rdf-json-bodies.ts";
import { jsonParseRate, lineBodies } from "./intake.ts";

describe("the intake's ceilings", () => {
  it("JSON.parse: data/s over the bodies, refusing bodies of another size than said", () => {
    const hundred = rdfJsonBodies(3, 100, "m");
    expect(jsonParseRate(hundred, 100, 0.05, 0.01)).toBeGreaterThan(1_000);
    expect(() => jsonParseRate(hundred, 10, 0.01, 0)).toThrow(/other counts/);
  });

  it("InfluxDB: write bodies of as many points, each a line the bench reads back", () => {
    const [first, second] = lineBodies(2, 3, "m");
    const lines = `${first}${second}`.trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    expect(lines.map((line) => parseLine(line)?.value)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
