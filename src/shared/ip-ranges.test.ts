import { BlockList, isIPv4, isIPv6 } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  embeddedIPv4Address,
  formatIPv4,
  nonPublicRangeOf,
  parseAddress,
  parseRange,
  rangeContains,
} from "./ip-ranges.ts";

/*
 * The shared parser runs where node:net does not (workerd), so node:net is its reference here:
 * both must agree on what is an IP literal and where ranges begin and end.
 */

const ipv4Numbers = fc.bigInt({ min: 0n, max: 0xffff_ffffn });
const ipv4Mapped = (ipv4: bigint) => (0xffffn << 32n) | ipv4;

const hexGroups = (address: bigint) =>
  Array.from({ length: 8 }, (_, index) => ((address >> BigInt(112 - 16 * index)) & 0xffffn).toString(16));

/** Text that looks like an address often enough to probe the edges of the grammar. */
const addressLikeText = fc.oneof(
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF:.%"), maxLength: 45 }),
  fc.string({ unit: fc.constantFrom(..."0129f:."), maxLength: 20 }),
  fc.ipV6(),
  fc.ipV4(),
  fc.ipV4Extended(),
  fc.tuple(fc.ipV6(), fc.string({ maxLength: 5 })).map(([address, zone]) => `${address}%${zone}`),
);

describe("parseAddress", () => {
  it("accepts exactly the literals node:net accepts (a zone index aside)", () => {
    fc.assert(
      fc.property(addressLikeText, (text) => {
        const nodeAccepts = isIPv4(text) || isIPv6(text.split("%")[0]!);
        expect(parseAddress(text) !== undefined).toBe(nodeAccepts);
      }),
      { numRuns: 5_000 },
    );
  });

  it("reads every spelling of an IPv6 address as the same point", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }), (address) => {
        const groups = hexGroups(address);
        const compressed = new URL(`http://[${groups.join(":")}]/`).hostname.slice(1, -1);
        const padded = groups.map((group) => group.padStart(4, "0").toUpperCase()).join(":");
        const ipv4Tail = `${groups.slice(0, 6).join(":")}:${formatIPv4(address)}`;
        for (const spelling of [groups.join(":"), compressed, padded, ipv4Tail]) {
          expect(parseAddress(spelling), spelling).toBe(address);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it("reads an IPv4 address as its IPv4-mapped IPv6 point", () => {
    fc.assert(
      fc.property(ipv4Numbers, (ipv4) => {
        const dotted = formatIPv4(ipv4);
        expect(parseAddress(dotted)).toBe(ipv4Mapped(ipv4));
        expect(parseAddress(`::ffff:${dotted}`)).toBe(ipv4Mapped(ipv4));
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("rangeContains", () => {
  it("agrees with node:net's BlockList on IPv6 subnets", () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.integer({ min: 0, max: 128 }), fc.ipV6(), (network, prefix, candidate) => {
        const blockList = new BlockList();
        blockList.addSubnet(network, prefix, "ipv6");
        const range = parseRange(`${network}/${prefix}`);
        expect(rangeContains(range, parseAddress(candidate)!)).toBe(blockList.check(candidate, "ipv6"));
        expect(rangeContains(range, parseAddress(network)!)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("agrees with node:net's BlockList on IPv4 subnets", () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 32 }), fc.ipV4(), (network, prefix, candidate) => {
        const blockList = new BlockList();
        blockList.addSubnet(network, prefix, "ipv4");
        const range = parseRange(`${network}/${prefix}`);
        expect(rangeContains(range, parseAddress(candidate)!)).toBe(blockList.check(candidate, "ipv4"));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("embeddedIPv4Address", () => {
  it("finds the gateway of a 6to4 address and the client of a Teredo address", () => {
    fc.assert(
      fc.property(ipv4Numbers, fc.bigInt({ min: 0n, max: (1n << 80n) - 1n }), (ipv4, rest) => {
        const sixToFour = (0x2002n << 112n) | (ipv4 << 80n) | rest;
        expect(embeddedIPv4Address(sixToFour)).toBe(ipv4Mapped(ipv4));
        const teredoClient = (0x2001_0000n << 96n) | ((rest >> 32n) << 32n) | (~ipv4 & 0xffff_ffffn);
        expect(embeddedIPv4Address(teredoClient)).toBe(ipv4Mapped(ipv4));
      }),
      { numRuns: 1_000 },
    );
  });

  it("finds nothing in other addresses", () => {
    for (const address of ["2001:4860:4860::8888", "::ffff:10.0.0.1", "2003::1", "2001:1::1"]) {
      expect(embeddedIPv4Address(parseAddress(address)!)).toBeUndefined();
    }
  });
});

describe("nonPublicRangeOf", () => {
  it("names the range of a non-public address and nothing for a public one", () => {
    expect(nonPublicRangeOf(parseAddress("192.168.3.4")!)?.name).toBe("private-use");
    expect(nonPublicRangeOf(parseAddress("::ffff:192.168.3.4")!)?.range.text).toBe("192.168.0.0/16");
    expect(nonPublicRangeOf(parseAddress("fe80::1%eth0")!)?.name).toBe("link-local");
    expect(nonPublicRangeOf(parseAddress("9.9.9.9")!)).toBeUndefined();
    expect(nonPublicRangeOf(parseAddress("2606:4700::1111")!)).toBeUndefined();
  });
});
