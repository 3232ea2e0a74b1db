import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { viaHeaderValue, viaNames } from "./via-header";

/** Instance ids as the services draw them: UUIDs, which hold no comma and no space. */
const instance = fc.uuid();

describe("viaHeaderValue", () => {
  it("names this service alone for data that came through no other", () => {
    expect(viaHeaderValue([], "7d1f")).toBe("7d1f");
  });

  it("names the upstream services in order, this service last", () => {
    expect(viaHeaderValue(["edge-1", "edge-2"], "central")).toBe("edge-1, edge-2, central");
  });
});

describe("viaNames", () => {
  it.each([
    ["the id alone", "a1"],
    ["the id last", "e1, a1"],
    ["the id first", "a1,e1"],
    ["spaces and tabs around the id", "e1 ,\t a1 \t, e2"],
    ["the id twice", "a1, a1"],
  ])("finds the instance in %s", (_, value) => {
    expect(viaNames(value, "a1")).toBe(true);
  });

  it.each([
    ["another id", "e1"],
    ["the id inside a longer one", "a10, xa1"],
    ["no id at all", ""],
    ["separators only", " , ,"],
    ["the id with a space inside", "a 1"],
  ])("does not find the instance in %s", (_, value) => {
    expect(viaNames(value, "a1")).toBe(false);
  });

  it("finds every service of a chain the header names, and none other", () => {
    fc.assert(
      fc.property(fc.array(instance, { maxLength: 5 }), instance, instance, (upstream, sender, stranger) => {
        fc.pre(![...upstream, sender].includes(stranger));
        const value = viaHeaderValue(upstream, sender);
        for (const id of [...upstream, sender]) expect(viaNames(value, id)).toBe(true);
        expect(viaNames(value, stranger)).toBe(false);
      }),
    );
  });
});
