import { beforeAll, describe, expect, it } from "vitest";
import { call, tokens } from "./requests";

/** This project runs without ALLOW_PRIVATE_OBSERVERS, as a deployment does. */
const metric = "policed";
const observersPath = `/v1/metrics/${metric}/observers`;

function register(body: Record<string, unknown>): Promise<Response> {
  return call("POST", observersPath, { token: tokens.admin, body });
}

async function listObservers(): Promise<unknown> {
  return (await call("GET", observersPath, { token: tokens.admin })).json();
}

function refusal(field: "callbackUrl" | "observerHost", reason: string) {
  return {
    type: "urn:tower-edge:problem:validation-failed",
    title: "Request not valid",
    status: 400,
    detail: "The observer's address may not be used.",
    errors: [{ path: `/${field}`, message: `The ${field} must be a public destination: ${reason}.` }],
  };
}

beforeAll(async () => {
  expect((await call("PUT", `/metrics/${metric}`, { token: tokens.admin })).status).toBe(201);
});

/** [host as a client writes it in a URL, the reason, which names the host as the URL parser spells it]. */
const refusedHosts: [host: string, reason: string][] = [
  // Loopback, also in the spellings the URL parser turns into 127.0.0.1.
  ["127.0.0.1", "127.0.0.1 is in the loopback range 127.0.0.0/8"],
  ["127.1", "127.0.0.1 is in the loopback range 127.0.0.0/8"],
  ["0x7f.1", "127.0.0.1 is in the loopback range 127.0.0.0/8"],
  ["0x7f000001", "127.0.0.1 is in the loopback range 127.0.0.0/8"],
  ["2130706433", "127.0.0.1 is in the loopback range 127.0.0.0/8"],
  ["0177.0.0.1", "127.0.0.1 is in the loopback range 127.0.0.0/8"],
  ["127.255.255.254", "127.255.255.254 is in the loopback range 127.0.0.0/8"],
  // Private, shared, link-local (cloud metadata), unspecified.
  ["10.1.2.3", "10.1.2.3 is in the private-use range 10.0.0.0/8"],
  ["172.16.0.1", "172.16.0.1 is in the private-use range 172.16.0.0/12"],
  ["172.31.255.255", "172.31.255.255 is in the private-use range 172.16.0.0/12"],
  ["192.168.1.1", "192.168.1.1 is in the private-use range 192.168.0.0/16"],
  ["100.64.0.1", "100.64.0.1 is in the shared (carrier-grade NAT) range 100.64.0.0/10"],
  ["100.127.255.255", "100.127.255.255 is in the shared (carrier-grade NAT) range 100.64.0.0/10"],
  ["169.254.169.254", "169.254.169.254 is in the link-local range 169.254.0.0/16"],
  ["0.0.0.0", "0.0.0.0 is in the this-network range 0.0.0.0/8"],
  ["0", "0.0.0.0 is in the this-network range 0.0.0.0/8"],
  // Multicast, reserved, broadcast, documentation, benchmarking, IETF.
  ["224.0.0.1", "224.0.0.1 is in the multicast range 224.0.0.0/4"],
  ["239.255.255.250", "239.255.255.250 is in the multicast range 224.0.0.0/4"],
  ["240.0.0.1", "240.0.0.1 is in the reserved or broadcast range 240.0.0.0/4"],
  ["255.255.255.255", "255.255.255.255 is in the reserved or broadcast range 240.0.0.0/4"],
  ["192.0.2.10", "192.0.2.10 is in the documentation range 192.0.2.0/24"],
  ["198.51.100.10", "198.51.100.10 is in the documentation range 198.51.100.0/24"],
  ["203.0.113.10", "203.0.113.10 is in the documentation range 203.0.113.0/24"],
  ["198.18.0.1", "198.18.0.1 is in the benchmarking range 198.18.0.0/15"],
  ["198.19.255.255", "198.19.255.255 is in the benchmarking range 198.18.0.0/15"],
  ["192.0.0.8", "192.0.0.8 is in the IETF protocol assignments range 192.0.0.0/24"],
  // IPv6: loopback, unspecified, unique-local, link-local, multicast, documentation, discard.
  ["[::1]", "::1 is in the unspecified, loopback or IPv4-compatible range ::/96"],
  ["[::]", ":: is in the unspecified, loopback or IPv4-compatible range ::/96"],
  ["[0:0:0:0:0:0:0:1]", "::1 is in the unspecified, loopback or IPv4-compatible range ::/96"],
  ["[fc00::1]", "fc00::1 is in the unique-local range fc00::/7"],
  ["[FD12:3456::1]", "fd12:3456::1 is in the unique-local range fc00::/7"],
  ["[fe80::1]", "fe80::1 is in the link-local range fe80::/10"],
  ["[febf:ffff::1]", "febf:ffff::1 is in the link-local range fe80::/10"],
  ["[ff02::1]", "ff02::1 is in the multicast range ff00::/8"],
  ["[2001:db8::1]", "2001:db8::1 is in the documentation range 2001:db8::/32"],
  ["[100::1]", "100::1 is in the discard-only range 100::/64"],
  // IPv4-mapped, IPv4-compatible and NAT64 forms of IPv4 addresses.
  ["[::ffff:127.0.0.1]", "::ffff:7f00:1 is in the loopback range 127.0.0.0/8"],
  ["[::ffff:7f00:1]", "::ffff:7f00:1 is in the loopback range 127.0.0.0/8"],
  ["[::ffff:10.0.0.1]", "::ffff:a00:1 is in the private-use range 10.0.0.0/8"],
  ["[::ffff:169.254.169.254]", "::ffff:a9fe:a9fe is in the link-local range 169.254.0.0/16"],
  ["[0:0:0:0:0:ffff:c0a8:101]", "::ffff:c0a8:101 is in the private-use range 192.168.0.0/16"],
  ["[::127.0.0.1]", "::7f00:1 is in the unspecified, loopback or IPv4-compatible range ::/96"],
  ["[::10.0.0.1]", "::a00:1 is in the unspecified, loopback or IPv4-compatible range ::/96"],
  ["[64:ff9b::10.0.0.1]", "64:ff9b::a00:1 is in the NAT64 (embeds an IPv4 address) range 64:ff9b::/96"],
  ["[64:ff9b:1::1]", "64:ff9b:1::1 is in the local-use NAT64 range 64:ff9b:1::/48"],
  // 6to4 and Teredo addresses that lead to a non-public IPv4 address.
  ["[2002:a00:1::1]", "2002:a00:1::1 leads to 10.0.0.1, which is in the private-use range 10.0.0.0/8"],
  ["[2002:7f00:1::]", "2002:7f00:1:: leads to 127.0.0.1, which is in the loopback range 127.0.0.0/8"],
  [
    "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
    "2001:0:4136:e378:8000:63bf:80ff:fffe leads to 127.0.0.1, which is in the loopback range 127.0.0.0/8",
  ],
  // Names that only a local network resolves.
  ["localhost", "localhost is a local-network name (.localhost)"],
  ["LocalHost.", "localhost. is a local-network name (.localhost)"],
  ["api.localhost", "api.localhost is a local-network name (.localhost)"],
  ["localhost.localdomain", "localhost.localdomain is a local-network name (.localdomain)"],
  ["printer.local", "printer.local is a local-network name (.local)"],
  ["metadata.google.internal", "metadata.google.internal is a local-network name (.internal)"],
  ["nas.home.arpa", "nas.home.arpa is a local-network name (.home.arpa)"],
  ["intranet", "intranet is a single-label name, which only a local network resolves"],
  ["metadata", "metadata is a single-label name, which only a local network resolves"],
];

/** Addresses on the public internet, including near neighbours of the refused ranges. */
const publicHosts = [
  "8.8.8.8",
  "1.1.1.1",
  "172.32.0.1",
  "100.128.0.1",
  "192.0.3.1",
  "198.20.0.1",
  "[2001:4860:4860::8888]",
  "[::ffff:8.8.8.8]",
  "[2002:808:808::1]",
  "receiver.example.com",
  "hooks.localhost-monitoring.com",
  "local.example.org",
];

describe("HTTP observers, by callbackUrl", () => {
  it.each(refusedHosts)("refuses http://%s/ with 400 at /callbackUrl and registers nothing", async (host, reason) => {
    const response = await register({ callbackUrl: `http://${host}:8080/hook` });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toEqual(refusal("callbackUrl", reason));
    expect(await listObservers()).toEqual([]);
  });

  it("refuses an https URL, and one with credentials, the same way", async () => {
    const https = await register({ callbackUrl: "https://user:pass@[::1]/hook" });
    expect(await https.json()).toEqual(
      refusal("callbackUrl", "::1 is in the unspecified, loopback or IPv4-compatible range ::/96"),
    );
  });
});

describe("TCP and UDP observers, by observerHost", () => {
  it.each(refusedHosts)("refuses %s with 400 at /observerHost and registers nothing", async (host, reason) => {
    for (const protocol of ["TCP", "UDP"]) {
      const response = await register({ protocol, format: "GRAPHITE", observerHost: host, observerPort: 2003 });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(refusal("observerHost", reason));
    }
    expect(await listObservers()).toEqual([]);
  });
});

describe("public destinations", () => {
  it.each(publicHosts)("registers %s as a callbackUrl and as an observerHost", async (host) => {
    const http = await register({ callbackUrl: `https://${host}/hook` });
    expect(http.status, await http.clone().text()).toBe(201);
    const tcp = await register({ protocol: "TCP", format: "GRAPHITE", observerHost: host, observerPort: 2003 });
    expect(tcp.status, await tcp.clone().text()).toBe(201);
    for (const created of [await http.json<{ id: string }>(), await tcp.json<{ id: string }>()]) {
      expect((await call("DELETE", `${observersPath}/${created.id}`, { token: tokens.admin })).status).toBe(204);
    }
  });
});
