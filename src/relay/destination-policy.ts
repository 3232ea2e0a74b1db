import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import {
  type AddressRange,
  nonPublicRangeOf,
  nonPublicRanges,
  parseAddress,
  rangeContains,
  rangeWithin,
} from "../shared/ip-ranges.ts";

export interface DestinationPolicyOptions {
  /** When not empty, only these ranges may be reached. */
  allow: readonly AddressRange[];
  /** Never reached; wins over everything else. */
  deny: readonly AddressRange[];
  /** Lifts the default denial of the non-public ranges (local development). */
  allowPrivate: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type HostLookup = (host: string) => Promise<ResolvedAddress[]>;

const systemLookup: HostLookup = async (host) =>
  (await lookup(host, { all: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** A delivery's destination may not be reached; the message is the delivery's error. */
export class DestinationRefused extends Error {
  override readonly name = "DestinationRefused";
}

/**
 * Where deliveries may go. The ranges that are not the public internet (shared with the Worker's
 * observer checks) are denied unless RELAY_ALLOW_PRIVATE is set or an allowed range names them
 * explicitly: otherwise anyone who can register an observer could probe the relay's own network.
 */
export class DestinationPolicy {
  /** Allowed ranges that lie wholly inside a non-public range: naming one opts into it. */
  private readonly explicitlyAllowedNonPublic: readonly AddressRange[];

  constructor(
    private readonly options: DestinationPolicyOptions,
    private readonly lookupHost: HostLookup = systemLookup,
  ) {
    this.explicitlyAllowedNonPublic = options.allow.filter((range) =>
      nonPublicRanges.some((nonPublic) => rangeWithin(range, nonPublic.range)),
    );
  }

  /** Why `address` (an IP literal) may not be reached, or undefined when it may. */
  refusal(address: string): string | undefined {
    const point = parseAddress(address);
    if (point === undefined) return `${address} is not an IP address`;
    const denied = this.options.deny.find((range) => rangeContains(range, point));
    if (denied) return `${address} is in the denied range ${denied.text}`;
    if (this.options.allow.length > 0 && !this.options.allow.some((range) => rangeContains(range, point))) {
      return `${address} is in none of the allowed ranges`;
    }
    if (this.options.allowPrivate || this.explicitlyAllowedNonPublic.some((range) => rangeContains(range, point))) {
      return undefined;
    }
    const nonPublic = nonPublicRangeOf(point);
    return nonPublic && `${address} is in the ${nonPublic.name} range ${nonPublic.range.text}`;
  }

  /**
   * The address to connect to for `host` (an IP literal, optionally in brackets, or a name).
   * Every address a name resolves to must be allowed, so that a name cannot smuggle in a denied
   * address beside an allowed one; callers connect to the returned, checked address, never
   * to the name, so a second resolution cannot swap it.
   */
  async resolve(host: string, port: number): Promise<ResolvedAddress> {
    const literal = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
    const family = isIP(literal.split("%")[0]!);
    const addresses = family === 0 ? await this.lookupAll(host) : [{ address: literal, family: family as 4 | 6 }];
    for (const { address } of addresses) {
      const reason = this.refusal(address);
      if (reason !== undefined) throw new DestinationRefused(`destination ${host}:${port} is not allowed: ${reason}`);
    }
    return addresses[0]!;
  }

  private async lookupAll(host: string): Promise<ResolvedAddress[]> {
    try {
      const addresses = await this.lookupHost(host);
      if (addresses.length > 0) return addresses;
    } catch (error) {
      throw new Error(`cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    throw new Error(`cannot resolve ${host}: no addresses`);
  }
}
