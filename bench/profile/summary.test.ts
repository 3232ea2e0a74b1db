import { describe, expect, it } from "vitest";
import { attributeFrame, idle } from "./stages.ts";
import {
  type CpuProfile,
  maxSampleMs,
  selfTimeByFunction,
  selfTimeByStage,
  unsampledMs,
  withModulePaths,
} from "./summary.ts";

const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });

/**
 * A small tree as V8 reports it: the root; the body's parsing with the built-in that reads the
 * bytes below it; encoding a message; sending it, by a callback whose queue send is a built-in of
 * the queue binding; the consumer, a shared helper below it, and row decoding in the message
 * format's module; a serializer; `fetch` at the root, where async code resumes without its
 * callers; an anonymous built-in the runtime calls; idle time, once after a long gap between
 * samples, and the collector.
 */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)", "", 0), children: [2, 4, 6, 9, 10, 11, 12, 13, 14] },
    { id: 2, callFrame: frame("parseJsonText", "index.js", 3), children: [3] },
    { id: 3, callFrame: frame("arrayBuffer", "", 0) },
    { id: 4, callFrame: frame("encodeIntakeMessages", "index.js", 6) },
    { id: 5, callFrame: frame("sendBatch", "", 0) },
    { id: 6, callFrame: frame("consumeIntake", "index.js", 13), children: [7, 8] },
    { id: 7, callFrame: frame("getOrCreate", "index.js", 10) },
    { id: 8, callFrame: frame("rowsToData", "index.js", 7) },
    { id: 9, callFrame: frame("towerObject", "index.js", 16) },
    { id: 10, callFrame: frame("fetch", "", 0) },
    { id: 11, callFrame: frame("", "", 0) },
    { id: 12, callFrame: frame("(idle)", "", 0) },
    { id: 13, callFrame: frame("(garbage collector)", "", 0) },
    { id: 14, callFrame: frame("sendMessages", "index.js", 8), children: [15] },
    { id: 15, callFrame: frame("", "index.js", 8), children: [5] },
  ],
  samples: [2, 2, 3, 4, 5, 6, 7, 7, 8, 9, 10, 11, 12, 13, 15, 12],
  timeDeltas: [1_000, 1_000, 500, 2_000, 1_500, 3_000, 500, 500, 2_500, 2_000, 1_000, 250, 4_000, 1_500, 700, 30_000],
};

const bundle = [
  "// imports",
  "// src/shared/http/json-text.ts",
  "const maxJsonDepth = 64;",
  "function parseJsonText() {}",
  "",
  "// src/worker/intake/queue-message.ts",
  "function encodeIntakeMessages() {}",
  "function rowsToData() {}",
  "function sendMessages() { return messages.map((message) => queue.send(message)); }",
  "// src/shared/get-or-create.ts",
  "function getOrCreate() {}",
  "",
  "// src/worker/delivery/intake-consumer.ts",
  "async function consumeIntake() {}",
  "",
  "// src/worker/delivery/formats/tower-json.ts",
  "function towerObject() {}",
].join("\n");

const named = withModulePaths(profile, "index.js", bundle);

describe("profile summary", () => {
  it("names each frame of the bundle by the module that esbuild marked above it", () => {
    expect(named.nodes.map((node) => node.callFrame.url)).toEqual([
      "",
      "src/shared/http/json-text.ts",
      "",
      "src/worker/intake/queue-message.ts",
      "",
      "src/worker/delivery/intake-consumer.ts",
      "src/shared/get-or-create.ts",
      "src/worker/intake/queue-message.ts",
      "src/worker/delivery/formats/tower-json.ts",
      "",
      "",
      "",
      "",
      "src/worker/intake/queue-message.ts",
      "src/worker/intake/queue-message.ts",
    ]);
    expect(named.nodes.find((node) => node.id === 8)?.callFrame.lineNumber).toBe(1);
  });

  it("sums self time by stage: built-ins and shared helpers where their nearest caller with a stage is", () => {
    expect(selfTimeByStage(named, attributeFrame)).toEqual([
      // A sample after a long gap counts for `maxSampleMs`; the rest of the gap is unsampled.
      { stage: idle, ms: 4 + maxSampleMs },
      // The consumer's own time and the helper it called, then the rows it decoded.
      { stage: "consumer decode", ms: 6.5 },
      // parseJsonText and the bytes read below it.
      { stage: "parse", ms: 2.5 },
      // The binding's send whoever calls it, and the callback that calls it, named by sendMessages around it.
      { stage: "queue", ms: 2.2 },
      { stage: "encode", ms: 2 },
      { stage: "serialize", ms: 2 },
      { stage: "garbage collection", ms: 1.5 },
      // No caller in the tree: `fetch` by its name, the anonymous built-in as the runtime's.
      { stage: "send", ms: 1 },
      { stage: "runtime and native code", ms: 0.25 },
    ]);
    expect(unsampledMs(named)).toBe(30 - maxSampleMs);
  });

  it("lists the functions with the most self time and the stage each counted for, idle left out", () => {
    expect(selfTimeByFunction(named, attributeFrame, 3, new Set([idle]))).toEqual([
      {
        functionName: "consumeIntake",
        where: "src/worker/delivery/intake-consumer.ts:1",
        stage: "consumer decode",
        ms: 3,
      },
      { functionName: "rowsToData", where: "src/worker/intake/queue-message.ts:2", stage: "consumer decode", ms: 2.5 },
      { functionName: "parseJsonText", where: "src/shared/http/json-text.ts:2", stage: "parse", ms: 2 },
    ]);
  });
});
