import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxViaIdLength, maxViaIds, readViaChain, viaHeaderValue, viaNames } from "./via-header";

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

describe("readViaChain", () => {
  it("reads the ids in order, each once, spaces around them and empty entries ignored", () => {
    expect(readViaChain("")).toEqual({ ok: true, ids: [] });
    expect(readViaChain(" , ")).toEqual({ ok: true, ids: [] });
    expect(readViaChain("e2,\te1 ,, e2, a1")).toEqual({ ok: true, ids: ["e2", "e1", "a1"] });
  });

  it("reads back every chain a delivery names", () => {
    fc.assert(
      fc.property(fc.array(instance, { maxLength: maxViaIds - 1 }), instance, (upstream, sender) => {
        const chain = [...new Set([...upstream, sender])];
        expect(readViaChain(viaHeaderValue(upstream, sender))).toEqual({ ok: true, ids: chain });
      }),
    );
  });

  it("takes at most maxViaIds ids of at most maxViaIdLength characters", () => {
    const ids = (count: number) => Array.from({ length: count }, (_, index) => `e${index}`).join(",");
    expect(readViaChain(ids(maxViaIds))).toMatchObject({ ok: true });
    expect(readViaChain(`${ids(maxViaIds)}, e0`)).toMatchObject({ ok: true });
    expect(readViaChain(ids(maxViaIds + 1))).toEqual({ ok: false, problem: "names 17 services, more than 16" });
    expect(readViaChain("x".repeat(maxViaIdLength))).toMatchObject({ ok: true });
    expect(readViaChain(`e1,${"x".repeat(maxViaIdLength + 1)}`)).toEqual({
      ok: false,
      problem: `names "${"x".repeat(maxViaIdLength)}", not an id of at most 64 visible ASCII characters`,
    });
  });

  it.each([
    ["a space", "e 1"],
    ["a control character", "e\u00011"],
    ["a character beyond ASCII", "é1"],
  ])("refuses an id with %s inside", (_, id) => {
    expect(readViaChain(`e0, ${id}`)).toMatchObject({ ok: false });
  });
});
