import { uncompress } from "snappyjs";
import { describe, expect, it } from "vitest";
import { sequencedRemoteWrite } from "./sequenced-remote-write.ts";

const text = (body: string | Uint8Array | undefined) => new TextDecoder("latin1").decode(body as Uint8Array);
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;
/** A sample's value field as protobuf writes it: field 1, wire type 1 (64-bit), the double little-endian. */
const valueField = (value: number) => {
  const bytes = new Uint8Array(9);
  bytes[0] = 0x09;
  new DataView(bytes.buffer).setFloat64(1, value, true);
  return text(bytes);
};

describe("remote write requests of sequence numbers", () => {
  it("names each series as asked, one sample each, request r holding the numbers from r × series on", () => {
    const requests = sequencedRemoteWrite(3, 4, (series) => `m_${series % 2}`);
    expect(requests).toMatchObject({
      path: "/api/v1/write",
      dataPerRequest: 4,
      headers: { "content-encoding": "snappy" },
    });
    expect(requests.bodies).toHaveLength(3);
    const third = text(uncompress(requests.bodies[2] as Uint8Array));
    expect(occurrences(third, "__name__")).toBe(4);
    expect(occurrences(third, "m_1")).toBe(2);
    expect(occurrences(third, "host-3:9100")).toBe(1);
    for (const value of [8, 9, 10, 11]) expect(third).toContain(valueField(value));
    expect(third).not.toContain(valueField(7));
  });
});
