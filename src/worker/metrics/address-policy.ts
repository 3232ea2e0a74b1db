import { embeddedIPv4Address, formatIPv4, nonPublicRangeOf, parseAddress } from "../../shared/ip-ranges";
import type { FieldProblem } from "../../shared/problems";
import type { ObserverRegistration } from "./observer-schema";

/**
 * DNS suffixes that only resolve inside a network: loopback names (RFC 6761, and the usual
 * localhost.localdomain alias), multicast DNS (RFC 6762), home networks (RFC 8375) and the
 * private-use TLD ICANN reserved in 2024 (cloud metadata services live under it).
 */
const localSuffixes = ["localhost", "localdomain", "local", "home.arpa", "internal"];

function ipLiteralRefusal(literal: string, address: bigint): string | undefined {
  const nonPublic = nonPublicRangeOf(address);
  if (nonPublic) return `${literal} is in the ${nonPublic.name} range ${nonPublic.range.text}`;
  const embedded = embeddedIPv4Address(address);
  const embeddedNonPublic = embedded === undefined ? undefined : nonPublicRangeOf(embedded);
  if (embedded === undefined || !embeddedNonPublic) return undefined;
  const ipv4 = formatIPv4(embedded);
  return `${literal} leads to ${ipv4}, which is in the ${embeddedNonPublic.name} range ${embeddedNonPublic.range.text}`;
}

/**
 * Names are judged by their spelling only: the Worker cannot resolve them. A single-label name
 * (`metadata`, `router`) can only be completed by a local resolver's search domains, and no
 * public service is reached by a bare top-level domain, so those count as local too.
 */
function hostNameRefusal(name: string): string | undefined {
  const labels = name.replace(/\.$/, "").toLowerCase();
  const suffix = localSuffixes.find((local) => labels === local || labels.endsWith(`.${local}`));
  if (suffix) return `${name} is a local-network name (.${suffix})`;
  if (!labels.includes(".")) return `${name} is a single-label name, which only a local network resolves`;
  return undefined;
}

/**
 * Why `host` is not a public destination, or undefined when it is. `host` is an IP literal
 * (IPv6 with or without brackets) or a DNS name, as the URL parser gives it: IPv4 spellings
 * such as `127.1` or `0x7f000001` already arrive as dotted quads, IPv6 in hexadecimal groups.
 */
export function nonPublicHostReason(host: string): string | undefined {
  const literal = host.replace(/^\[(.*)\]$/, "$1");
  const address = parseAddress(literal);
  return address === undefined ? hostNameRefusal(literal) : ipLiteralRefusal(literal, address);
}

/**
 * The problem with where an observer asks to be sent, or undefined when the service may send
 * there. Unless private destinations are allowed (local development), an observer must be on the
 * public internet: otherwise registering one would make the service probe its own network (SSRF).
 */
export function observerAddressProblem(
  registration: ObserverRegistration,
  allowPrivate: boolean,
): FieldProblem | undefined {
  if (allowPrivate) return undefined;
  const [field, host] =
    registration.callbackUrl === undefined
      ? (["observerHost", registration.observerHost!] as const)
      : (["callbackUrl", new URL(registration.callbackUrl).hostname] as const);
  const reason = nonPublicHostReason(host);
  if (reason === undefined) return undefined;
  return {
    path: `/${field}`,
    message: `The ${field} must be a public destination: ${reason}.`,
  };
}
