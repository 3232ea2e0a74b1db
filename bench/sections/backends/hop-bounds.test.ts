import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stages } from "../../profile/stages.ts";
import { hopBound, hopPartMicros, hopParts, hopProfileLines } from "./hop-bounds.ts";
import type { HopProfile } from "./hop-profile.ts";

const profileOf = (stageMicros: Map<string, number>, workerdMicros: number): HopProfile => ({
  samples: 1_000,
  lost: 0,
  stageMicros,
  workerdMicros,
  operations: { queueMessagesWritten: 2, durableObjectRequests: 3, outboundRequests: 1 },
  functions: [{ functionName: "encodeSnappyBlock", where: "src/x.ts:1", stage: "serialize", ms: 0.5 }],
});

describe("the parts of the pipeline hop", () => {
  it("hold every stage of the profile once", () => {
    const partStages = hopParts.flatMap(({ stages: partStages }) => partStages);
    expect([...partStages].sort()).toEqual([...stages].sort());
  });

  it("sum to workerd's CPU per sample, what the isolate did not do counted outside it", () => {
    const micros = fc.float({ min: 0, max: 10, noNaN: true });
    const stageFigures = fc.array(micros, { minLength: stages.length, maxLength: stages.length });
    fc.assert(
      fc.property(stageFigures, micros, (each, outside) => {
        const stageMicros = new Map(stages.map((stage, index) => [stage as string, each[index]!]));
        const busy = each.reduce((sum, value) => sum + value, 0);
        const parts = hopPartMicros(profileOf(stageMicros, busy + outside));
        const total = parts.reduce((sum, { micros: part }) => sum + part, 0);
        expect(total).toBeCloseTo(busy + outside, 6);
        for (let index = 1; index < parts.length; index++) {
          expect(parts[index - 1]!.micros).toBeGreaterThanOrEqual(parts[index]!.micros);
        }
      }),
    );
  });

  it("count nothing outside the isolate when the profile's busy time exceeds workerd's CPU", () => {
    const parts = hopPartMicros(profileOf(new Map([["parse", 2]]), 1));
    expect(parts.find(({ part }) => part.startsWith("workerd outside"))?.micros).toBe(0);
  });
});

describe("what bounds the hop", () => {
  const stageMicros = new Map([
    ["parse", 0.3],
    ["serialize", 0.4],
    ["encode", 0.2],
    ["consumer decode", 0.1],
    ["Durable Object calls", 0.05],
  ]);
  const profile = profileOf(stageMicros, 2);

  it("says the floor of decoding and encoding, then the other parts largest first, as multiples of vmagent's", () => {
    const sentence = hopBound(profile, 0.2);
    expect(sentence).toContain("workerd's 2.00 µs per sample (10.00 × vmagent's 0.20 µs)");
    expect(sentence).toContain("decoding and encoding remote write, 0.70 µs (3.50 ×)");
    const outside = sentence.indexOf("workerd outside the isolate");
    const queueHop = sentence.indexOf("the queue hop in the isolate");
    expect(outside).toBeGreaterThan(0);
    expect(queueHop).toBeGreaterThan(outside);
    expect(sentence).toContain(
      "workerd outside the isolate (sockets, HTTP, Miniflare's queue broker, storage) 0.95 µs (4.75 ×)",
    );
  });

  it("tables every stage and the platform operations per 1,000 samples", () => {
    const lines = hopProfileLines(profile, 0.2);
    expect(lines[0]).toContain("2.00 queue messages, 3.00 Durable Object requests, 1.00 outbound requests");
    for (const stage of stages) expect(lines.some((line) => line.startsWith(`| ${stage} |`))).toBe(true);
    expect(lines).toContain("| encodeSnappyBlock | src/x.ts:1 | serialize | 0.500 |");
  });
});
