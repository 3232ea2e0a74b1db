import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRelay, type TestRelay } from "../../test/e2e/support/relay.ts";
import {
  startTcpReceiver,
  startUdpReceiver,
  type TcpReceiver,
  type UdpReceiver,
} from "../../test/e2e/support/socket-receivers.ts";
import { parseRange } from "../shared/ip-ranges.ts";
import { DestinationPolicy, type DestinationPolicyOptions, type ResolvedAddress } from "./destination-policy.ts";

function policy(options: Partial<Record<"allow" | "deny", string[]>> & { allowPrivate?: boolean } = {}) {
  const settings: DestinationPolicyOptions = {
    allow: (options.allow ?? []).map(parseRange),
    deny: (options.deny ?? []).map(parseRange),
    allowPrivate: options.allowPrivate ?? false,
  };
  return new DestinationPolicy(settings);
}

describe("default policy", () => {
  const defaults = policy();

  it.each([
    ["127.0.0.1", "127.0.0.1 is in the loopback range 127.0.0.0/8"],
    ["10.1.2.3", "10.1.2.3 is in the private-use range 10.0.0.0/8"],
    ["172.31.255.255", "172.31.255.255 is in the private-use range 172.16.0.0/12"],
    ["192.168.0.1", "192.168.0.1 is in the private-use range 192.168.0.0/16"],
    ["169.254.169.254", "169.254.169.254 is in the link-local range 169.254.0.0/16"],
    ["100.64.0.1", "100.64.0.1 is in the shared (carrier-grade NAT) range 100.64.0.0/10"],
    ["0.0.0.0", "0.0.0.0 is in the this-network range 0.0.0.0/8"],
    ["255.255.255.255", "255.255.255.255 is in the reserved or broadcast range 240.0.0.0/4"],
    ["::1", "::1 is in the unspecified, loopback or IPv4-compatible range ::/96"],
    ["::", ":: is in the unspecified, loopback or IPv4-compatible range ::/96"],
    ["fe80::1%lo", "fe80::1%lo is in the link-local range fe80::/10"],
    ["fd12:3456::1", "fd12:3456::1 is in the unique-local range fc00::/7"],
    ["ff02::1", "ff02::1 is in the multicast range ff00::/8"],
    ["::ffff:127.0.0.1", "::ffff:127.0.0.1 is in the loopback range 127.0.0.0/8"],
    ["::ffff:7f00:1", "::ffff:7f00:1 is in the loopback range 127.0.0.0/8"],
    ["::FFFF:10.0.0.1", "::FFFF:10.0.0.1 is in the private-use range 10.0.0.0/8"],
    ["64:ff9b::a00:1", "64:ff9b::a00:1 is in the NAT64 (embeds an IPv4 address) range 64:ff9b::/96"],
  ])("refuses %s", (address, reason) => {
    expect(defaults.refusal(address)).toBe(reason);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"])("allows %s", (address) => {
    expect(defaults.refusal(address)).toBeUndefined();
  });
});

describe("configured ranges", () => {
  it("lets RELAY_ALLOW_PRIVATE reach private and loopback addresses", () => {
    const local = policy({ allowPrivate: true });
    expect(local.refusal("127.0.0.1")).toBeUndefined();
    expect(local.refusal("::1")).toBeUndefined();
    expect(local.refusal("10.0.0.1")).toBeUndefined();
  });

  it("lets a denied range win over RELAY_ALLOW_PRIVATE and over allowed ranges, in both notations", () => {
    const denying = policy({ allowPrivate: true, allow: ["127.0.0.0/8"], deny: ["127.0.0.2/32", "::1/128"] });
    expect(denying.refusal("127.0.0.2")).toBe("127.0.0.2 is in the denied range 127.0.0.2/32");
    expect(denying.refusal("::ffff:127.0.0.2")).toBe("::ffff:127.0.0.2 is in the denied range 127.0.0.2/32");
    expect(denying.refusal("::1")).toBe("::1 is in the denied range ::1/128");
    expect(denying.refusal("127.0.0.1")).toBeUndefined();
  });

  it("applies an IPv4-mapped IPv6 range to plain IPv4 addresses", () => {
    const mapped = policy({ deny: ["::ffff:8.8.0.0/112"] });
    expect(mapped.refusal("8.8.4.4")).toBe("8.8.4.4 is in the denied range ::ffff:8.8.0.0/112");
    expect(mapped.refusal("8.9.0.1")).toBeUndefined();
  });

  it("reaches only the allowed ranges once some are given", () => {
    const allowList = policy({ allow: ["8.8.8.0/24", "2001:db8:1::/48"] });
    expect(allowList.refusal("8.8.8.8")).toBeUndefined();
    expect(allowList.refusal("1.1.1.1")).toBe("1.1.1.1 is in none of the allowed ranges");
    expect(allowList.refusal("2001:db8:2::1")).toBe("2001:db8:2::1 is in none of the allowed ranges");
    // Named explicitly, a range inside a non-public one is reachable without RELAY_ALLOW_PRIVATE.
    expect(allowList.refusal("2001:db8:1::5")).toBeUndefined();
  });

  it("opens a private range named explicitly, but not through a catch-all range", () => {
    const vpc = policy({ allow: ["10.1.0.0/16", "0.0.0.0/0"] });
    expect(vpc.refusal("10.1.2.3")).toBeUndefined();
    expect(vpc.refusal("10.2.0.1")).toBe("10.2.0.1 is in the private-use range 10.0.0.0/8");
    expect(vpc.refusal("127.0.0.1")).toBe("127.0.0.1 is in the loopback range 127.0.0.0/8");
    expect(vpc.refusal("9.9.9.9")).toBeUndefined();
  });
});

describe("host names", () => {
  const resolvingTo = (addresses: ResolvedAddress[]) =>
    new DestinationPolicy({ allow: [], deny: [], allowPrivate: false }, async () => addresses);

  it("checks every address a name resolves to", async () => {
    const mixed = resolvingTo([
      { address: "8.8.8.8", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ]);
    await expect(mixed.resolve("sneaky.example", 2003)).rejects.toThrow(
      "destination sneaky.example:2003 is not allowed: 10.0.0.7 is in the private-use range 10.0.0.0/8",
    );
  });

  it("returns the first checked address of an allowed name", async () => {
    const publicName = resolvingTo([
      { address: "2001:4860:4860::8888", family: 6 },
      { address: "8.8.8.8", family: 4 },
    ]);
    await expect(publicName.resolve("dns.example", 53)).resolves.toEqual({
      address: "2001:4860:4860::8888",
      family: 6,
    });
  });

  it("takes IP literals as they are, with or without brackets", async () => {
    const neverLooksUp = new DestinationPolicy({ allow: [], deny: [], allowPrivate: false }, async () => {
      throw new Error("looked up");
    });
    await expect(neverLooksUp.resolve("[2001:4860:4860::8888]", 53)).resolves.toEqual({
      address: "2001:4860:4860::8888",
      family: 6,
    });
    await expect(neverLooksUp.resolve("[::1]", 53)).rejects.toThrow(
      "destination [::1]:53 is not allowed: ::1 is in the unspecified, loopback or IPv4-compatible range ::/96",
    );
  });
});

describe("parseRange", () => {
  it.each(["10.0.0.0/33", "10.0.0/8", "::/129", "10.0.0.0/", "example.com/8", "fe80::1%eth0/64", "1.2.3.4/8/8"])(
    "rejects %s",
    (text) => {
      expect(() => parseRange(text)).toThrow(
        `"${text}" is not an IP address range (expected e.g. 10.0.0.0/8 or fd00::/8)`,
      );
    },
  );

  it("takes a bare address as a range of one", () => {
    expect(parseRange("192.0.2.1")).toMatchObject({ prefixLength: 128 });
    expect(parseRange("2001:db8::1")).toMatchObject({ prefixLength: 128 });
  });
});

describe("a relay with the default policy", () => {
  let relay: TestRelay;
  let tcpReceiver: TcpReceiver;
  let udpReceiver: UdpReceiver;

  beforeAll(async () => {
    relay = await startTestRelay({ RELAY_ALLOW_PRIVATE: "false" });
    tcpReceiver = await startTcpReceiver();
    udpReceiver = await startUdpReceiver();
  });
  afterAll(async () => {
    await relay.close();
    await tcpReceiver.close();
    await udpReceiver.close();
  });

  it("refuses loopback destinations, however spelled, and sends them nothing", async () => {
    const udp = { protocol: "UDP" as const, port: udpReceiver.port, records: ["x 1 1"], packing: "lines" as const };
    const { status, results } = await relay.deliver([
      { id: "tcp", protocol: "TCP", host: "127.0.0.1", port: tcpReceiver.port, payload: "x 1 1\n" },
      { id: "mapped", host: "::ffff:127.0.0.1", ...udp },
      { id: "name", host: "localhost", ...udp },
    ]);

    expect(status).toBe(200);
    expect(results).toEqual([
      {
        id: "tcp",
        ok: false,
        error: `destination 127.0.0.1:${tcpReceiver.port} is not allowed: 127.0.0.1 is in the loopback range 127.0.0.0/8`,
      },
      {
        id: "mapped",
        ok: false,
        error: `destination ::ffff:127.0.0.1:${udpReceiver.port} is not allowed: ::ffff:127.0.0.1 is in the loopback range 127.0.0.0/8`,
      },
      {
        id: "name",
        ok: false,
        error: expect.stringMatching(new RegExp(`^destination localhost:${udpReceiver.port} is not allowed: `)),
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(tcpReceiver.connections).toBe(0);
    expect(udpReceiver.datagrams).toEqual([]);
  });
});
