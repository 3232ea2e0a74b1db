import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SourcePositions } from "./source-positions";

/** The line and column by counting, character by character, as the positions must agree. */
function counted(source: string, offset: number): string {
  const lines = source.slice(0, offset).split(/\r\n|\r|\n/);
  return `line ${lines.length}, column ${Array.from(lines.at(-1)!).length + 1}`;
}

describe("SourcePositions", () => {
  it("counts lines ended by LF, CR and CR LF alike, from 1", () => {
    const positions = new SourcePositions("a\nb\rc\r\nd");
    expect(positions.describe(0)).toBe("line 1, column 1");
    expect(positions.describe(2)).toBe("line 2, column 1");
    expect(positions.describe(4)).toBe("line 3, column 1");
    expect(positions.describe(7)).toBe("line 4, column 1");
  });

  it("counts a character outside the BMP as one column", () => {
    expect(new SourcePositions("😀😀<a/>").describe(4)).toBe("line 1, column 3");
    expect(new SourcePositions("x\n😀<a/>").describe(4)).toBe("line 2, column 2");
  });

  it("agrees with counting character by character", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "<", "\n", "\r", "😀", "é") });
    fc.assert(
      fc.property(text, fc.nat(), (source, at) => {
        const starts = [...source.matchAll(/</g)].map((match) => match.index);
        fc.pre(starts.length > 0);
        const offset = starts[at % starts.length]!;
        expect(new SourcePositions(source).describe(offset)).toBe(counted(source, offset));
      }),
    );
  });

  it("answers many lookups in one long line at once", () => {
    const source = "<x/>".repeat(200_000);
    const positions = new SourcePositions(source);
    const started = performance.now();
    for (let offset = 0; offset < source.length; offset += 40) positions.describe(offset);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
