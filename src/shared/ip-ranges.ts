/*
 * IP addresses and ranges, and the ranges that are not the public internet. Shared by the Worker
 * (observer registration) and the relay (every delivery), so both refuse the same destinations.
 * Pure TypeScript: workerd has no node:net.
 *
 * IPv4 and IPv6 addresses live in one 128-bit space: an IPv4 address is its IPv4-mapped IPv6
 * form (::ffff:a.b.c.d), so a range given in either notation matches both spellings of an address.
 */
const ipv4MappedPrefix = 0xffffn << 32n;
const ipv4PrefixOffset = 96;
const ipv4Mask = 0xffff_ffffn;

export interface AddressRange {
  /** The range as configured or listed, for messages. */
  readonly text: string;
  readonly network: bigint;
  readonly prefixLength: number;
}

/** Dotted-quad decimal without leading zeros: the only IPv4 spelling accepted, as by node:net's isIPv4. */
const ipv4Pattern = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const ipv6GroupPattern = /^[0-9a-f]{1,4}$/i;

function parseIPv4(text: string): bigint | undefined {
  if (!ipv4Pattern.test(text)) return undefined;
  return text.split(".").reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

/** The 16-bit groups of one side of `::`; a dotted IPv4 tail counts as two groups. */
function parseIPv6Groups(text: string, mayEndInIPv4: boolean): bigint[] | undefined {
  if (text === "") return [];
  const parts = text.split(":");
  const groups: bigint[] = [];
  for (const [index, part] of parts.entries()) {
    if (ipv6GroupPattern.test(part)) {
      groups.push(BigInt(`0x${part}`));
      continue;
    }
    const ipv4 = mayEndInIPv4 && index === parts.length - 1 ? parseIPv4(part) : undefined;
    if (ipv4 === undefined) return undefined;
    groups.push(ipv4 >> 16n, ipv4 & 0xffffn);
  }
  return groups;
}

/** RFC 4291 text form: eight groups, or fewer around one `::` that stands for at least one zero group. */
function parseIPv6(text: string): bigint | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const [head = "", tail] = halves;
  const leading = parseIPv6Groups(head, tail === undefined);
  const trailing = tail === undefined ? [] : parseIPv6Groups(tail, true);
  if (leading === undefined || trailing === undefined) return undefined;
  const zeroGroups = 8 - leading.length - trailing.length;
  if (tail === undefined ? zeroGroups !== 0 : zeroGroups < 1) return undefined;
  const groups = [...leading, ...Array<bigint>(zeroGroups).fill(0n), ...trailing];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

/**
 * An IP literal as a point of the 128-bit space, or undefined for anything else. A zone index
 * (fe80::1%eth0) does not change which range an address is in, so it is ignored.
 */
export function parseAddress(text: string): bigint | undefined {
  const ipv4 = parseIPv4(text);
  if (ipv4 !== undefined) return ipv4MappedPrefix | ipv4;
  return parseIPv6(text.split("%")[0]!);
}

/** Parses `address/prefix` (IPv4 or IPv6); a bare address is a range of one. Throws on anything else. */
export function parseRange(text: string): AddressRange {
  const [addressText = "", prefixText, ...rest] = text.trim().split("/");
  const address = addressText.includes("%") ? undefined : parseAddress(addressText);
  const bits = parseIPv4(addressText) === undefined ? 128 : 32;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (address === undefined || rest.length > 0 || !(prefix <= bits)) {
    throw new Error(`"${text}" is not an IP address range (expected e.g. 10.0.0.0/8 or fd00::/8)`);
  }
  const prefixLength = bits === 32 ? prefix + ipv4PrefixOffset : prefix;
  const hostBits = BigInt(128 - prefixLength);
  return { text: text.trim(), network: (address >> hostBits) << hostBits, prefixLength };
}

export function rangeContains(range: AddressRange, address: bigint): boolean {
  const hostBits = BigInt(128 - range.prefixLength);
  return address >> hostBits === range.network >> hostBits;
}

/** Whether every address of `inner` lies in `outer`. */
export function rangeWithin(inner: AddressRange, outer: AddressRange): boolean {
  return inner.prefixLength >= outer.prefixLength && rangeContains(outer, inner.network);
}

export interface NamedRange {
  readonly range: AddressRange;
  /** What the range is for (IANA special-purpose address registries), for messages. */
  readonly name: string;
}

/**
 * Ranges that are not the public internet: sending to them would let anyone who can register an
 * observer probe the service's own network (SSRF).
 */
export const nonPublicRanges: readonly NamedRange[] = (
  [
    ["0.0.0.0/8", "this-network"],
    ["10.0.0.0/8", "private-use"],
    ["100.64.0.0/10", "shared (carrier-grade NAT)"],
    ["127.0.0.0/8", "loopback"],
    ["169.254.0.0/16", "link-local"],
    ["172.16.0.0/12", "private-use"],
    ["192.0.0.0/24", "IETF protocol assignments"],
    ["192.0.2.0/24", "documentation"],
    ["192.168.0.0/16", "private-use"],
    ["198.18.0.0/15", "benchmarking"],
    ["198.51.100.0/24", "documentation"],
    ["203.0.113.0/24", "documentation"],
    ["224.0.0.0/4", "multicast"],
    ["240.0.0.0/4", "reserved or broadcast"],
    // Unspecified, loopback and the deprecated IPv4-compatible form (::a.b.c.d).
    ["::/96", "unspecified, loopback or IPv4-compatible"],
    ["64:ff9b::/96", "NAT64 (embeds an IPv4 address)"],
    ["64:ff9b:1::/48", "local-use NAT64"],
    ["100::/64", "discard-only"],
    ["2001:db8::/32", "documentation"],
    ["fc00::/7", "unique-local"],
    ["fe80::/10", "link-local"],
    ["ff00::/8", "multicast"],
  ] as const
).map(([text, name]) => ({ range: parseRange(text), name }));

/** The non-public range `address` lies in, if any. */
export function nonPublicRangeOf(address: bigint): NamedRange | undefined {
  return nonPublicRanges.find(({ range }) => rangeContains(range, address));
}

const sixToFour = parseRange("2002::/16");
const teredo = parseRange("2001::/32");

/**
 * The IPv4 address that packets to an IPv6 transition address end up at, as a point of the
 * 128-bit space: the gateway of a 6to4 address (RFC 3056, bits 16-47), the client of a Teredo
 * address (RFC 4380, the inverted last 32 bits). Undefined for any other address.
 */
export function embeddedIPv4Address(address: bigint): bigint | undefined {
  if (rangeContains(sixToFour, address)) return ipv4MappedPrefix | ((address >> 80n) & ipv4Mask);
  if (rangeContains(teredo, address)) return ipv4MappedPrefix | (~address & ipv4Mask);
  return undefined;
}

/** Dotted-quad form of a point in the IPv4-mapped part of the space. */
export function formatIPv4(address: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((address >> shift) & 0xffn)).join(".");
}
