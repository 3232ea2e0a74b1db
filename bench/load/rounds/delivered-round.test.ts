import { describe, expect, it } from "vitest";
import { ProcessGroup } from "../../runtime/process-accounting.ts";
import { startBackendReceiver } from "../receivers/backend-receiver.ts";
import { receiverHost } from "../receivers/receivers.ts";
import { samplesPerBody, sequencedSeriesWrites } from "../requests/series-writes.ts";
import {
  combinedRounds,
  type DeliveredRound,
  lostSamples,
  microsPerSample,
  runDeliveredRound,
  samplesPerSecond,
} from "./delivered-round.ts";

const round = (accepted: number, delivered: number, seconds: number, cpu: number): DeliveredRound<"hop"> => ({
  accepted,
  refused: 0,
  delivered,
  duplicates: 0,
  unreadable: 0,
  postingSeconds: seconds / 2,
  throughSeconds: seconds,
  cpu: { hop: cpu },
});

describe("a delivered round", () => {
  it("counts what a hop took and what came out of it", async () => {
    // The receiver as its own hop: what it answers 204 it has counted.
    const receiver = await startBackendReceiver("PROMETHEUS");
    try {
      const requests = sequencedSeriesWrites({ first: 0, count: 3, metricOf: () => "m", startMs: 0 });
      const self = new ProcessGroup("the test", [{ pid: process.pid, comm: "node", cmdline: "" }]);
      const figures = await runDeliveredRound({
        baseUrl: `http://${receiverHost}:${receiver.port}`,
        requests,
        receiver,
        groups: { self },
      });
      expect(figures).toMatchObject({ accepted: 3 * samplesPerBody, delivered: 3 * samplesPerBody, refused: 0 });
      expect(lostSamples(figures)).toBe(0);
      expect(figures.throughSeconds).toBeGreaterThanOrEqual(figures.postingSeconds);
      expect(figures.cpu.self).toBeGreaterThanOrEqual(0);
    } finally {
      await receiver.close();
    }
  });

  it("sums rounds, and derives rates, losses and CPU per sample", () => {
    const both = combinedRounds([round(1_000, 1_000, 1, 0.002), round(3_000, 2_500, 3, 0.006)]);
    expect(both).toMatchObject({ accepted: 4_000, delivered: 3_500, throughSeconds: 4, cpu: { hop: 0.008 } });
    expect(lostSamples(both)).toBe(500);
    expect(samplesPerSecond(both)).toBe(875);
    expect(microsPerSample(both, "hop")).toBeCloseTo(2);
  });
});
