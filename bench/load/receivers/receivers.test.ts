import { createSocket } from "node:dgram";
import { once } from "node:events";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { eventually } from "../../../test/e2e/support/service.ts";
import { formatLine, measuredDatum, parseLine, probeDatum } from "../line-protocol.ts";
import { PostingTimes } from "./posting-times.ts";
import { LatencyRecorder, startLatencyReceiver } from "./receivers.ts";

/** Posting times of one datum a request, posted at `times`. */
function postedAt(...times: number[]): PostingTimes {
  const postingTimes = new PostingTimes(1);
  for (const time of times) postingTimes.recordRequest(time);
  return postingTimes;
}

describe("bench line protocol", () => {
  it("reads back what it writes, and what InfluxDB re-encodes", () => {
    expect(parseLine(formatLine("m", measuredDatum(1234, 1_700_000_000_123)).trimEnd())).toEqual({
      metric: "m",
      resourceId: "r234",
      value: 1234,
    });
    expect(parseLine("m,host=a,resourceId=r7 other=1,value=7i 1700000000000000000")).toEqual({
      metric: "m",
      resourceId: "r7",
      value: 7,
    });
    expect(parseLine("m,resourceId=r7 value=7.0")).toEqual({ metric: "m", resourceId: "r7", value: 7 });
    expect(parseLine("m value=7 1")).toBeUndefined();
    expect(parseLine('m,resourceId=r7 value="seven" 1')).toBeUndefined();
  });

  it("reads a line in place, within a larger text", () => {
    const text = "a,resourceId=r1 value=1 5\nb,other=x,resourceId=r2 value=2i,extra=3\nc value=3 1\n";
    const second = text.indexOf("b,");
    const third = text.indexOf("c ");
    expect(parseLine(text, 0, second - 1)).toEqual({ metric: "a", resourceId: "r1", value: 1 });
    expect(parseLine(text, second, third - 1)).toEqual({ metric: "b", resourceId: "r2", value: 2 });
    // The next line's fields do not leak into a line that lacks its own.
    expect(parseLine("m,resourceId=r1 other=1\nm,resourceId=r2 value=2 1", 0, 23)).toBeUndefined();
    expect(parseLine(text, third, text.length - 1)).toBeUndefined();
  });
});

describe("LatencyRecorder", () => {
  it("keeps the first arrival of each datum, counts duplicates, probes and unreadable lines apart, ignores other metrics", () => {
    const recorder = new LatencyRecorder("m", postedAt(1_000, 1_000, 1_010));
    const lines = [measuredDatum(0, 1_000), measuredDatum(2, 1_010), measuredDatum(0, 1_000), probeDatum(0)]
      .map((datum) => formatLine("m", datum))
      .join("");
    recorder.record(`${lines}other,resourceId=r1 value=1 1\nm,resourceId=r9 value=9 1\nm value`, 1_050);
    expect([recorder.latencies.count, recorder.latencies.percentile(0), recorder.latencies.percentile(1)]).toEqual([
      2, 40, 50,
    ]);
    expect(recorder.distinct).toBe(2);
    expect(recorder.duplicates).toBe(1);
    expect(recorder.probes).toBe(1);
    // A datum never posted (sequence 9) and a line that is no line protocol; the other metric's line is ignored.
    expect(recorder.unreadable).toBe(2);
    expect(recorder.firstUnreadable).toBe("m,resourceId=r9 value=9 1");
    expect(recorder.lastArrival).toBe(1_050);
    expect(recorder.arrivals.countWithin(1_050, 1_060)).toBe(2);
  });
});

describe("LatencyRecorder in TOWER/JSON", () => {
  const element = (sequence: number, metric = "m", resourceId = `r${sequence}`) => ({
    resourceId,
    metric,
    value: sequence,
    timestamp: 1,
  });

  it("reads each element of each payload, one payload a line", () => {
    const recorder = new LatencyRecorder("m", postedAt(1_000, 1_000, 1_010), "TOWER/JSON");
    const payloads = [
      [element(0), element(1)],
      [element(2), element(0), element(7, "other"), element(0, "m", "probe")],
    ].map((payload) => JSON.stringify(payload));
    recorder.record(`${payloads.join("\n")}\n`, 1_050);
    expect([recorder.latencies.count, recorder.latencies.percentile(0), recorder.latencies.percentile(0.5)]).toEqual([
      3, 40, 50,
    ]);
    expect(recorder.distinct).toBe(3);
    expect(recorder.duplicates).toBe(1);
    expect(recorder.probes).toBe(1);
    expect(recorder.unreadable).toBe(0);
  });

  it("counts what is no TOWER/JSON as unreadable: not JSON, not an array, an element without a number", () => {
    const recorder = new LatencyRecorder("m", postedAt(1_000), "TOWER/JSON");
    recorder.record('m,resourceId=r0 value=0 1\n{"value":0}\n[{"resourceId":"r0","metric":"m","value":"0"}]', 1_050);
    expect(recorder.unreadable).toBe(3);
    expect(recorder.firstUnreadable).toBe("m,resourceId=r0 value=0 1");
    expect(recorder.distinct).toBe(0);
  });
});

describe("latency receivers", () => {
  const now = Date.now();
  const postingTimes = postedAt(now, now, now);
  const text = [0, 1, 2].map((sequence) => formatLine("m", measuredDatum(sequence, now))).join("");

  it("TCP: reassembles lines split across chunks", async () => {
    const receiver = await startLatencyReceiver("TCP", "m", postingTimes);
    const socket = connect(receiver.port, "127.0.0.1");
    await once(socket, "connect");
    socket.setNoDelay(true);
    for (const piece of [text.slice(0, 10), text.slice(10, 45), text.slice(45)]) {
      socket.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await eventually(() => receiver.recorder.distinct === 3, 5_000);
    expect(receiver.recorder.unreadable).toBe(0);
    socket.destroy();
    await receiver.close();
  });

  it("HTTP: answers 204 and records the body", async () => {
    const receiver = await startLatencyReceiver("HTTP", "m", postingTimes);
    const response = await fetch(`http://127.0.0.1:${receiver.port}/write?db=x`, { method: "POST", body: text });
    expect(response.status).toBe(204);
    expect(receiver.recorder.distinct).toBe(3);
    await receiver.close();
  });

  it("HTTP in TOWER/JSON: records the elements of the array", async () => {
    const receiver = await startLatencyReceiver("HTTP", "m", postingTimes, "TOWER/JSON");
    expect(receiver.format).toBe("TOWER/JSON");
    const body = JSON.stringify(
      [0, 1, 2].map((sequence) => ({ resourceId: `r${sequence}`, metric: "m", value: sequence, timestamp: 1 })),
    );
    const response = await fetch(`http://127.0.0.1:${receiver.port}/`, { method: "POST", body });
    expect(response.status).toBe(204);
    expect(receiver.recorder.distinct).toBe(3);
    expect(receiver.recorder.unreadable).toBe(0);
    await receiver.close();
  });

  it("UDP: one or more lines per datagram, with or without a trailing newline", async () => {
    const receiver = await startLatencyReceiver("UDP", "m", postingTimes);
    const sender = createSocket("udp4");
    const [first, second, third] = text.split("\n");
    for (const datagram of [`${first}\n${second}\n`, third!]) {
      await new Promise((resolve) => sender.send(datagram, receiver.port, "127.0.0.1", resolve));
    }
    await eventually(() => receiver.recorder.distinct === 3, 5_000);
    expect(receiver.recorder.unreadable).toBe(0);
    sender.close();
    await receiver.close();
  });
});
