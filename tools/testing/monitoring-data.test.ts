import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rdfJsonBody, rdfJsonBodyText } from "./monitoring-data.ts";

describe("rdfJsonBodyText", () => {
  it("writes the body rdfJsonBody builds, whatever the strings and numbers", () => {
    const datum = fc.record({
      id: fc.string({ unit: "binary" }),
      metric: fc.string({ unit: "binary" }),
      timestamp: fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
      value: fc.oneof(fc.double(), fc.string()),
      resourceId: fc.string({ unit: "binary" }),
    });
    fc.assert(
      fc.property(fc.array(datum, { maxLength: 8 }), (data) => {
        expect(JSON.parse(rdfJsonBodyText(data))).toEqual(rdfJsonBody(data));
      }),
    );
  });

  it("keeps the data's order in the text", () => {
    const data = ["b", "a"].map((id) => ({ id, metric: "m", timestamp: 1, value: 0.5, resourceId: "vm" }));
    expect(rdfJsonBodyText(data)).toBe(JSON.stringify(rdfJsonBody(data)));
  });
});
