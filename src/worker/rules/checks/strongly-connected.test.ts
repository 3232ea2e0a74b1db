import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stronglyConnected } from "./strongly-connected";

/** Whether `from` reaches `to` by following successors (itself included), by search. */
function reaches(successors: readonly number[][], from: number, to: number): boolean {
  const seen = new Set([from]);
  const pending = [from];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node === to) return true;
    for (const next of successors[node]!) {
      if (!seen.has(next)) {
        seen.add(next);
        pending.push(next);
      }
    }
  }
  return false;
}

const graph = fc.integer({ min: 1, max: 12 }).chain((count) =>
  fc.array(fc.array(fc.integer({ min: 0, max: count - 1 }), { maxLength: 4 }), {
    minLength: count,
    maxLength: count,
  }),
);

describe("stronglyConnected", () => {
  it("puts the nodes of a cycle together and the others apart", () => {
    const component = stronglyConnected([[1], [2], [0, 3], [], [4]]);
    expect(component[0]).toBe(component[1]);
    expect(component[1]).toBe(component[2]);
    expect(new Set(component).size).toBe(3);
  });

  it("puts two nodes together exactly when each reaches the other", () => {
    fc.assert(
      fc.property(graph, (successors) => {
        const component = stronglyConnected(successors);
        for (let from = 0; from < successors.length; from++) {
          for (let to = 0; to < successors.length; to++) {
            const together = reaches(successors, from, to) && reaches(successors, to, from);
            expect(component[from] === component[to]).toBe(together);
          }
        }
      }),
    );
  });

  it("takes a cycle of two hundred thousand nodes without overflowing the stack", () => {
    const count = 200_000;
    const component = stronglyConnected(Array.from({ length: count }, (_, node) => [(node + 1) % count]));
    expect(new Set(component).size).toBe(1);
  });
});
