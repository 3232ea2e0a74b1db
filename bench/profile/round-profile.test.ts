import { describe, expect, it } from "vitest";
import { busyMicros, outsideIsolateMicros, stageMicrosPer } from "./round-profile.ts";
import type { CpuProfile } from "./summary.ts";

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

/** Parsing for 2 ms, encoding for 1 ms, idle for 4 ms (each sample counts for the time since the one before). */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)", ""), children: [2, 3, 4] },
    { id: 2, callFrame: frame("parse", "src/worker/intake/line-protocol/parser.ts") },
    { id: 3, callFrame: frame("encodeIntakeMessages", "src/worker/intake/queue-message.ts") },
    { id: 4, callFrame: frame("(idle)", "") },
  ],
  samples: [2, 2, 3, 4, 4],
  timeDeltas: [1_000, 1_000, 1_000, 2_000, 2_000],
};

describe("a profiled round's figures per unit", () => {
  it("spread each stage's busy time over the units, idle time left out", () => {
    expect(stageMicrosPer(profile, 1_000)).toEqual(
      new Map([
        ["parse", 2],
        ["encode", 1],
      ]),
    );
  });

  it("count what workerd spent beyond the isolate's busy time as outside it, never less than none", () => {
    const stageMicros = stageMicrosPer(profile, 1_000);
    expect(busyMicros({ stageMicros, workerdMicros: 5 })).toBe(3);
    expect(outsideIsolateMicros({ stageMicros, workerdMicros: 5 })).toBe(2);
    expect(outsideIsolateMicros({ stageMicros, workerdMicros: 2 })).toBe(0);
  });
});
