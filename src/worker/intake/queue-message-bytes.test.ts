import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Datum } from "./datum";
import { readIntakeMessage, utf8Length, withJournalReference, writeMessageBytes } from "./queue-message-bytes";

const encoder = new TextEncoder();

function datum(id: string, metric: string, value = 1, resourceId = "vm1", timestamp = 1000): Datum {
  return { id, metric, timestamp, value, resourceId };
}

const header = (message: Uint8Array) =>
  Array.from({ length: 8 }, (_, index) => new DataView(message.buffer).getUint32(4 * index, true));

describe("utf8Length", () => {
  it("counts one to four bytes per character as UTF-8 does", () => {
    const samples = [
      "",
      "abc",
      "é",
      "\u07ff",
      "\u0800",
      "€",
      "\ud7ff",
      "\ue000",
      "\uffff",
      "𝄞",
      "aé€𝄞",
      "température 😀",
    ];
    expect(samples.map(utf8Length)).toEqual([0, 3, 2, 2, 3, 3, 3, 3, 3, 4, 10, 17]);
    expect(samples.map(utf8Length)).toEqual(samples.map((sample) => encoder.encode(sample).length));
  });
});

describe("writeMessageBytes and readIntakeMessage", () => {
  it("lays out the numbers as doubles and every resourceId once, and reads the rows back", () => {
    const message = writeMessageBytes([
      ["cpu", [datum("d1", "cpu", 0.5, "vm1", 1000), datum("d3", "cpu", -2.25, "vm2", 3000)]],
      ["mem", [datum("d2", "mem", 7, "vm1", 2000)]],
    ]);
    // version, groups, rows, resources, UTF-8, text bytes, no journal reference
    expect(header(message)).toEqual([1, 2, 3, 2, 0, 18, 0, 0]);
    const texts = "cpumemd1d3d2vm1vm2";
    expect(message.length).toBe(32 + 16 * 3 + 4 * (2 + 3 + 7) + texts.length);
    expect(new TextDecoder().decode(message.subarray(message.length - texts.length))).toBe(texts);
    expect(readIntakeMessage(message)).toEqual({
      metrics: [
        [
          "cpu",
          [
            ["d1", 1000, 0.5, "vm1"],
            ["d3", 3000, -2.25, "vm2"],
          ],
        ],
        ["mem", [["d2", 2000, 7, "vm1"]]],
      ],
    });
  });

  it("reads non-finite values as their xsd:double forms, and keeps the sign of negative zero", () => {
    const values = [Number.NaN, Infinity, -Infinity, -0, 0, Number.MIN_VALUE, -Number.MAX_VALUE];
    const message = writeMessageBytes([["odd", values.map((value, index) => datum(`v${index}`, "odd", value))]]);
    const [[, rows]] = readIntakeMessage(message).metrics as [[string, [string, number, unknown, string][]]];
    expect(rows.map(([, , value]) => value)).toEqual([
      "NaN",
      "INF",
      "-INF",
      -0,
      0,
      Number.MIN_VALUE,
      -Number.MAX_VALUE,
    ]);
    expect(Object.is(rows[3]![2], -0)).toBe(true);
  });

  it("carries unpaired surrogates in UTF-16, and a leading byte-order mark as it is", () => {
    const data = [datum("\ufeffid", "m\ud800", 1, "\udfffvm"), datum("é😀", "m\ud800", 2, "€")];
    const message = writeMessageBytes([["m\ud800", data]]);
    expect(header(message)[4]).toBe(1);
    expect(readIntakeMessage(message).metrics).toEqual([
      [
        "m\ud800",
        [
          ["\ufeffid", 1000, 1, "\udfffvm"],
          ["é😀", 1000, 2, "€"],
        ],
      ],
    ]);
    const utf8 = writeMessageBytes([["\ufeffm", [datum("\ufeffé", "\ufeffm")]]]);
    expect(header(utf8)[4]).toBe(0);
    expect(readIntakeMessage(utf8).metrics).toEqual([["\ufeffm", [["\ufeffé", 1000, 1, "vm1"]]]]);
  });

  it("adds a journal reference after the message, which the reader gives back with the rows", () => {
    const message = writeMessageBytes([["cpu", [datum("a", "cpu", 0.5, "vm-é")]]]);
    const referenced = withJournalReference(message, [7, "send-1/0"]);
    expect(referenced.subarray(0, message.length).subarray(32)).toEqual(message.subarray(32));
    expect(header(referenced)[6]).toBe('[7,"send-1/0"]'.length);
    expect(readIntakeMessage(referenced)).toEqual({
      metrics: [["cpu", [["a", 1000, 0.5, "vm-é"]]]],
      journal: [7, "send-1/0"],
    });
  });

  it("reads bytes wherever they start in their buffer, and the JSON texts intake messages were before", () => {
    const message = writeMessageBytes([["cpu", [datum("a", "cpu")]]]);
    const shifted = new Uint8Array(message.length + 3);
    shifted.set(message, 3);
    expect(readIntakeMessage(shifted.subarray(3))).toEqual(readIntakeMessage(message));
    expect(readIntakeMessage(message.buffer)).toEqual(readIntakeMessage(message));
    const before =
      '{"kind":"intake","metrics":[["cpu",[["a",1000,"NaN","vm1"],["b",2000,-0,"vm1"]]]],"journal":[3,"s/0"]}';
    expect(readIntakeMessage(before)).toEqual({
      kind: "intake",
      metrics: [
        [
          "cpu",
          [
            ["a", 1000, "NaN", "vm1"],
            ["b", 2000, -0, "vm1"],
          ],
        ],
      ],
      journal: [3, "s/0"],
    });
  });

  it("refuses bytes whose counts and lengths disagree, whatever was cut or changed", () => {
    const message = withJournalReference(
      writeMessageBytes([
        ["cpu", [datum("a", "cpu", 1, "vm1"), datum("b", "cpu", 2, "vm2")]],
        ["é", [datum("c", "é")]],
      ]),
      [1, "x/0"],
    );
    expect(() => readIntakeMessage(42)).toThrow("malformed intake message: a body of type number");
    expect(() => readIntakeMessage(message.subarray(0, 20))).toThrow("shorter than its header");
    fc.assert(
      fc.property(fc.integer({ min: 32, max: message.length - 1 }), (length) => {
        expect(() => readIntakeMessage(message.slice(0, length))).toThrow(/^malformed intake message/);
      }),
    );
    const changed = (at: number, value: number) => {
      const copy = message.slice();
      new DataView(copy.buffer).setUint32(at, value, true);
      return copy;
    };
    expect(() => readIntakeMessage(changed(0, 2))).toThrow("layout version 2, not 1");
    expect(() => readIntakeMessage(changed(16, 5))).toThrow("does not describe its");
    // The first group's row count, a row's resource index, the first text's length.
    expect(() => readIntakeMessage(changed(32 + 16 * 3, 4))).toThrow("more rows than it has");
    expect(() => readIntakeMessage(changed(32 + 16 * 3, 1))).toThrow("fewer rows than it has");
    expect(() => readIntakeMessage(changed(32 + 16 * 3 + 8, 9))).toThrow("row 0 names no resource");
    expect(() => readIntakeMessage(changed(32 + 16 * 3 + 20, 4))).toThrow("texts are shorter than their lengths");
    expect(() => readIntakeMessage(changed(32 + 16 * 3 + 20, 2))).toThrow("texts are longer than their lengths");
  });
});
