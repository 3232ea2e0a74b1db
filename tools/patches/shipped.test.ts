import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { modulesDirectory, patchedFiles, projectPatches } from "./apply.ts";
import { shippedCopy, shippedSource } from "./shipped.ts";

it("copies the files a patch changes as shipped: the patch's removed lines back, its added ones gone", () => {
  for (const patch of projectPatches()) {
    const directory = shippedCopy(patch);
    try {
      const text = readFileSync(patch, "utf8");
      const removed = [...text.matchAll(/^-(?!--)(.*)$/gm)].map((match) => match[1]!);
      const added = [...text.matchAll(/^\+(?!\+\+)(.*)$/gm)].map((match) => match[1]!);
      const shipped = patchedFiles(patch).map((file) => readFileSync(join(directory, file), "utf8"));
      for (const line of removed)
        expect(
          shipped.some((source) => source.includes(line)),
          line,
        ).toBe(true);
      for (const line of added)
        expect(
          shipped.some((source) => source.includes(line)),
          line,
        ).toBe(false);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
});

it("reads a bundled file's upstream source from its source map, and says when the map has none", () => {
  const broker = "miniflare/dist/src/workers/queues/broker.worker.js";
  expect(shippedSource(broker, "src/workers/queues/broker.worker.ts")).toContain("class QueueBrokerObject");
  expect(() => shippedSource(broker, "no-such-source.ts")).toThrow(`${broker}.map carries no source no-such-source.ts`);
  expect(readFileSync(join(modulesDirectory, broker), "utf8")).not.toContain("class QueueBrokerObject extends");
});
