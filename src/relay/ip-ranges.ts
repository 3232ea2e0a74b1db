import { isIPv4, isIPv6 } from "node:net";

/**
 * IPv4 and IPv6 addresses live in one 128-bit space: an IPv4 address is its IPv4-mapped IPv6
 * form (::ffff:a.b.c.d), so a range given in either notation matches both spellings of an address.
 */
const ipv4MappedPrefix = 0xffffn << 32n;
const ipv4PrefixOffset = 96;

export interface AddressRange {
  /** The range as configured or listed, for messages. */
  readonly text: string;
  readonly network: bigint;
  readonly prefixLength: number;
}

function parseIPv4(text: string): bigint {
  return text.split(".").reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

function parseIPv6Groups(text: string): bigint[] {
  if (text === "") return [];
  const groups: bigint[] = [];
  for (const part of text.split(":")) {
    if (part.includes(".")) {
      const ipv4 = parseIPv4(part);
      groups.push(ipv4 >> 16n, ipv4 & 0xffffn);
    } else {
      groups.push(BigInt(`0x${part}`));
    }
  }
  return groups;
}

function parseIPv6(text: string): bigint {
  const [head = "", tail] = text.split("::");
  const leading = parseIPv6Groups(head);
  const trailing = tail === undefined ? [] : parseIPv6Groups(tail);
  const zeros: bigint[] = Array(8 - leading.length - trailing.length).fill(0n);
  return [...leading, ...zeros, ...trailing].reduce((value, group) => (value << 16n) | group, 0n);
}

/**
 * An IP literal as a point of the 128-bit space, or undefined for anything else. A zone index
 * (fe80::1%eth0) does not change which range an address is in, so it is ignored.
 */
export function parseAddress(text: string): bigint | undefined {
  if (isIPv4(text)) return ipv4MappedPrefix | parseIPv4(text);
  const withoutZone = text.split("%")[0]!;
  if (isIPv6(withoutZone)) return parseIPv6(withoutZone);
  return undefined;
}

/** Parses `address/prefix` (IPv4 or IPv6); a bare address is a range of one. Throws on anything else. */
export function parseRange(text: string): AddressRange {
  const [addressText = "", prefixText, ...rest] = text.trim().split("/");
  const address = addressText.includes("%") ? undefined : parseAddress(addressText);
  const bits = isIPv4(addressText) ? 32 : 128;
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
