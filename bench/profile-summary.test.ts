import { describe, expect, it } from "vitest";
import { type CpuProfile, selfTimeByFunction, selfTimeByStage, withModulePaths } from "./profile-summary.ts";

const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });

/** Two frames of the bundle (one per module), JSON.parse as a built-in, idle and the collector. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)", "", 0), children: [2, 3, 4, 5, 6] },
    { id: 2, callFrame: frame("readJson", "index.js", 3) },
    { id: 3, callFrame: frame("towerObject", "index.js", 7) },
    { id: 4, callFrame: frame("parse", "", 0) },
    { id: 5, callFrame: frame("(idle)", "", 0) },
    { id: 6, callFrame: frame("(garbage collector)", "", 0) },
  ],
  samples: [2, 2, 3, 4, 5, 6, 2],
  timeDeltas: [1_000, 1_000, 2_000, 500, 4_000, 1_500, 1_000],
};

const bundle = [
  "// imports",
  "// src/shared/http/json-text.ts",
  "const maxJsonDepth = 64;",
  "function readJson() {}",
  "",
  "// src/worker/delivery/formats/tower-json.ts",
  "",
  "function towerObject() {}",
].join("\n");

describe("profile summary", () => {
  it("names each frame of the bundle by the module that esbuild marked above it", () => {
    const named = withModulePaths(profile, "index.js", bundle);
    expect(named.nodes.map((node) => node.callFrame.url)).toEqual([
      "",
      "src/shared/http/json-text.ts",
      "src/worker/delivery/formats/tower-json.ts",
      "",
      "",
      "",
    ]);
  });

  it("sums self time by stage of the data path and by function, largest first", () => {
    const named = withModulePaths(profile, "index.js", bundle);
    expect(selfTimeByStage(named)).toEqual([
      { name: "idle", ms: 4 },
      { name: "http (auth, limits, JSON text)", ms: 3 },
      { name: "delivery (consumer, fan-out, formats, transports)", ms: 2 },
      { name: "garbage collection", ms: 1.5 },
      { name: "built-in: parse", ms: 0.5 },
    ]);
    expect(selfTimeByFunction(named, 2)).toEqual([
      { functionName: "readJson", where: "src/shared/http/json-text.ts:2", ms: 3 },
      { functionName: "towerObject", where: "src/worker/delivery/formats/tower-json.ts:2", ms: 2 },
    ]);
  });
});
