import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ObserverRegistration } from "./observer-schema";
import { ObserverStore } from "./observer-store";

/** Runs `work` on the observer store of a fresh metric object. */
function withStore<R>(metric: string, work: (store: ObserverStore) => R): Promise<R> {
  return runInDurableObject(env.METRIC.getByName(metric), (_, state) => work(new ObserverStore(state.storage.sql)));
}

const secret = "0123456789abcdef-secret";
const http: ObserverRegistration = { format: "RDF/JSON", protocol: "HTTP", callbackUrl: "http://o.example/in" };
const tcp: ObserverRegistration = { format: "GRAPHITE", protocol: "TCP", observerHost: "10.0.0.1", observerPort: 2003 };
const udp: ObserverRegistration = { ...tcp, protocol: "UDP" };
const ipv6: ObserverRegistration = {
  format: "INFLUXDB",
  protocol: "TCP",
  observerHost: "2001:db8::1",
  observerPort: 8089,
};

const t1 = Date.UTC(2026, 0, 2, 3, 4, 5);
const t2 = t1 + 60_000;
const noDeliveries = { delivered: 0, failed: 0, lost: 0, lastSuccessAt: null, lastFailureAt: null, lastError: null };

describe("ObserverStore", () => {
  it("inserts observers with fresh ids, without exposing their secret, and counts them", () =>
    withStore("store-insert", (store) => {
      expect(store.count()).toBe(0);
      const created = store.insert({ ...http, secret });
      expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...http });
      expect(created).not.toHaveProperty("secret");
      const other = store.insert(tcp);
      expect(other).toEqual({ id: expect.any(String), ...tcp });
      expect(other.id).not.toBe(created.id);
      expect(store.count()).toBe(2);
    }));

  it("finds an observer by format, protocol and address, whatever its secret", () =>
    withStore("store-same-target", (store) => {
      const created = [http, tcp, ipv6].map((registration) => store.insert(registration));
      expect(store.findSameTarget({ ...http, secret })).toEqual(created[0]);
      expect(store.findSameTarget(tcp)).toEqual(created[1]);
      expect(store.findSameTarget(ipv6)).toEqual(created[2]);
      expect(store.findSameTarget(udp)).toBeUndefined();
      expect(store.findSameTarget({ ...tcp, format: "INFLUXDB" })).toBeUndefined();
      expect(store.findSameTarget({ ...tcp, observerPort: 2004 })).toBeUndefined();
      expect(store.findSameTarget({ ...http, callbackUrl: "http://o.example/other" })).toBeUndefined();
      expect(() => store.insert({ ...tcp, secret })).toThrow();
      expect(store.count()).toBe(3);
    }));

  it("lists observers in registration order, and gives their secrets only as targets", () =>
    withStore("store-order", (store) => {
      const registrations = [udp, { ...http, secret }, tcp, ipv6];
      const created = registrations.map((registration) => store.insert(registration));
      expect(store.list()).toEqual(created);
      expect(store.targets()).toEqual([created[0], { ...created[1], secret }, created[2], created[3]]);
      expect(store.target(created[1]!.id)).toEqual({ ...created[1], secret });
      expect(store.target(created[0]!.id)).not.toHaveProperty("secret");
      expect(store.target("unknown")).toBeUndefined();
    }));

  it("replaces or removes an observer's secret", () =>
    withStore("store-secret", (store) => {
      const { id } = store.insert({ ...http, secret });
      store.setSecret(id, "fedcba9876543210-rotated");
      expect(store.target(id)).toEqual({ id, ...http, secret: "fedcba9876543210-rotated" });
      store.setSecret(id, null);
      expect(store.target(id)).toEqual({ id, ...http });
    }));

  it("reports an observer with an empty status until deliveries are recorded", () =>
    withStore("store-report", (store) => {
      const { id } = store.insert(tcp);
      expect(store.report(id)).toEqual({ id, ...tcp, status: noDeliveries });
      expect(store.report("unknown")).toBeUndefined();
    }));

  it("adds delivered data, failed attempts and lost data to the status", () =>
    withStore("store-status", (store) => {
      const { id: observerId } = store.insert(tcp);
      const { id: otherId } = store.insert(udp);
      store.recordDeliveries([
        { observerId, ok: true, data: 3, at: t1 },
        { observerId, ok: true, data: 4, at: t1 },
        { observerId, ok: false, data: 5, at: t1, error: "HTTP 503 from the observer" },
        { observerId: otherId, ok: false, lost: true, data: 6, at: t2, error: "gave up after 8 attempts" },
        { observerId: "removed-meanwhile", ok: true, data: 9, at: t2 },
      ]);
      expect(store.report(observerId)?.status).toEqual({
        delivered: 7,
        failed: 1,
        lost: 0,
        lastSuccessAt: "2026-01-02T03:04:05.000Z",
        lastFailureAt: "2026-01-02T03:04:05.000Z",
        lastError: "HTTP 503 from the observer",
      });
      expect(store.report(otherId)?.status).toEqual({
        delivered: 0,
        failed: 1,
        lost: 6,
        lastSuccessAt: null,
        lastFailureAt: "2026-01-02T03:05:05.000Z",
        lastError: "gave up after 8 attempts",
      });
      expect(store.count()).toBe(2);
    }));

  it("keeps the latest success, failure and error when outcomes arrive out of order", () =>
    withStore("store-late", (store) => {
      const { id: observerId } = store.insert(http);
      store.recordDeliveries([
        { observerId, ok: true, data: 1, at: t2 },
        { observerId, ok: false, data: 1, at: t2, error: "newer" },
      ]);
      store.recordDeliveries([
        { observerId, ok: false, data: 2, at: t1, error: "older" },
        { observerId, ok: true, data: 2, at: t1 },
      ]);
      expect(store.report(observerId)?.status).toEqual({
        delivered: 3,
        failed: 2,
        lost: 0,
        lastSuccessAt: "2026-01-02T03:05:05.000Z",
        lastFailureAt: "2026-01-02T03:05:05.000Z",
        lastError: "newer",
      });
    }));

  it("removes one observer, and reports whether there was one", () =>
    withStore("store-remove", (store) => {
      const kept = store.insert(http);
      const removed = store.insert(tcp);
      expect(store.remove(removed.id)).toBe(true);
      expect(store.remove(removed.id)).toBe(false);
      expect(store.list()).toEqual([kept]);
      expect(store.report(removed.id)).toBeUndefined();
      expect(store.findSameTarget(tcp)).toBeUndefined();
      expect(store.count()).toBe(1);
    }));

  it("clears every observer, after which a target can be registered again", () =>
    withStore("store-clear", (store) => {
      const [first] = [http, tcp, udp].map((registration) => store.insert(registration));
      store.clear();
      expect(store.count()).toBe(0);
      expect(store.list()).toEqual([]);
      expect(store.targets()).toEqual([]);
      const again = store.insert(http);
      expect(again.id).not.toBe(first!.id);
      expect(store.list()).toEqual([again]);
    }));

  it("keeps its observers across store instances on the same storage", async () => {
    const created = await withStore("store-persisted", (store) => [store.insert(http), store.insert(tcp)]);
    expect(await withStore("store-persisted", (store) => store.list())).toEqual(created);
  });
});
