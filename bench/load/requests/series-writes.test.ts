import { uncompress } from "snappyjs";
import { describe, expect, it } from "vitest";
import { deliveredValues } from "../receivers/backend-payloads.ts";
import { samplesPerBody, sequencedSeriesWrites, seriesPerBody } from "./series-writes.ts";

describe("sequenced series writes", () => {
  it("numbers the samples of a stretch of the sequence as its bodies' places say", () => {
    const writes = sequencedSeriesWrites({ first: 3, count: 2, metricOf: (series) => `m_${series % 7}`, startMs: 0 });
    expect(writes.dataPerRequest).toBe(samplesPerBody);
    const values = writes.bodies.flatMap((body) => deliveredValues("PROMETHEUS", Buffer.from(body)) ?? []);
    expect(values).toEqual(Array.from({ length: 2 * samplesPerBody }, (_, index) => 3 * samplesPerBody + index));
  });

  it("names every series of a body once", () => {
    const [body] = sequencedSeriesWrites({
      first: 0,
      count: 1,
      metricOf: (series) => `m_${series}`,
      startMs: 0,
    }).bodies;
    const text = Buffer.from(uncompress(body as Uint8Array)).toString("latin1");
    expect(new Set(text.match(/host-\d+:9100/g)).size).toBe(seriesPerBody);
  });
});
