import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { noDeliveriesYet } from "../../../test/support/delivery-status";
import type { DeliveryStatus } from "../vocabulary/delivery";
import type { ObserverRegistration } from "./observer-schema";
import { ObserverStore } from "./observer-store";

/** Runs `work` on the observer store of a fresh metric object. */
function withStore<R>(metric: string, work: (store: ObserverStore) => R): Promise<R> {
  return runInDurableObject(env.METRIC.getByName(metric), (_, state) => work(new ObserverStore(state.storage.sql)));
}

const secret = "0123456789abcdef-secret";
const rotated = "fedcba9876543210-rotated";
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
const noDeliveries: DeliveryStatus = noDeliveriesYet;

describe("ObserverStore", () => {
  it("inserts active observers with fresh ids, without exposing their secret, and counts them", () =>
    withStore("store-insert", (store) => {
      expect(store.count()).toBe(0);
      const created = store.insert({ ...http, secret }, secret);
      expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), ...http, state: "active" });
      expect(created).not.toHaveProperty("secret");
      const other = store.insert(tcp, undefined);
      expect(other).toEqual({ id: expect.any(String), ...tcp, state: "active" });
      expect(other.id).not.toBe(created.id);
      expect(store.count()).toBe(2);
    }));

  it("finds an observer by format, protocol and address, whatever its secret", () =>
    withStore("store-same-target", (store) => {
      const created = [http, tcp, ipv6].map((registration) => store.insert(registration, undefined));
      expect(store.findSameTarget({ ...http, secret })).toEqual(created[0]);
      expect(store.findSameTarget(tcp)).toEqual(created[1]);
      expect(store.findSameTarget(ipv6)).toEqual(created[2]);
      expect(store.findSameTarget(udp)).toBeUndefined();
      expect(store.findSameTarget({ ...tcp, format: "INFLUXDB" })).toBeUndefined();
      expect(store.findSameTarget({ ...tcp, observerPort: 2004 })).toBeUndefined();
      expect(store.findSameTarget({ ...http, callbackUrl: "http://o.example/other" })).toBeUndefined();
      expect(() => store.insert(tcp, secret)).toThrow();
      expect(store.count()).toBe(3);
    }));

  it("lists observers in registration order, and gives their secrets and headers only as targets", () =>
    withStore("store-order", (store) => {
      const headers = { authorization: "Bearer receiver-token" };
      const created = [
        store.insert(udp, undefined),
        store.insert({ ...http, headers }, secret),
        store.insert(tcp, undefined),
        store.insert(ipv6, undefined),
      ];
      expect(store.list()).toEqual(created);
      expect(store.targets(t1).map(({ target }) => target)).toEqual([
        { ...created[0], secrets: [], headers: {} },
        { ...created[1], secrets: [secret], headers },
        { ...created[2], secrets: [], headers: {} },
        { ...created[3], secrets: [], headers: {} },
      ]);
      expect(store.target(created[1]!.id, t1)?.target).toEqual({ ...created[1], secrets: [secret], headers });
      expect(store.target("unknown", t1)).toBeUndefined();
    }));

  it("signs with the replaced secret beside the new one until the rotation ends", () =>
    withStore("store-rotation", (store) => {
      const { id } = store.insert(http, secret);
      store.change(id, { secret: rotated, rotationEndsAt: t2 });
      expect(store.target(id, t2 - 1)?.target.secrets).toEqual([rotated, secret]);
      expect(store.target(id, t2)?.target.secrets).toEqual([rotated]);

      store.change(id, { secret: rotated, rotationEndsAt: t2 + 60_000 });
      expect(store.target(id, t2)?.target.secrets).toEqual([rotated]);
    }));

  it("gives an observer without a secret its first one, with nothing to rotate", () =>
    withStore("store-first-secret", (store) => {
      const { id } = store.insert(http, undefined);
      store.change(id, { secret, rotationEndsAt: t2 });
      expect(store.target(id, t1)?.target.secrets).toEqual([secret]);
    }));

  it("pauses, replaces headers and resumes an observer", () =>
    withStore("store-change", (store) => {
      const { id } = store.insert({ ...http, headers: { "x-old": "1" } }, undefined);
      store.change(id, { state: "paused", headers: { "x-new": "2" } });
      expect(store.target(id, t1)).toMatchObject({ target: { state: "paused", headers: { "x-new": "2" } } });
      expect(store.list()[0]).toEqual({ id, ...http, state: "paused" });

      store.recordFailure(id, "HTTP 500", t1);
      store.schedule(id, t2 + 60_000, 4);
      store.resume(id, t2);
      expect(store.target(id, t2)?.ledger).toMatchObject({
        state: "active",
        failing_since: null,
        retry_step: 0,
        next_attempt_at: t2,
      });
    }));

  it("reports an observer with an empty status until deliveries are recorded", () =>
    withStore("store-report", (store) => {
      const { id } = store.insert(tcp, undefined);
      expect(store.report(id, null)).toEqual({ id, ...tcp, state: "active", status: noDeliveries });
      expect(store.report("unknown", null)).toBeUndefined();
    }));

  it("adds delivered data and failed attempts to the status", () =>
    withStore("store-status", (store) => {
      const { id } = store.insert(tcp, undefined);
      store.recordSuccess(id, 3, t1);
      store.recordSuccess(id, 4, t1);
      store.recordFailure(id, "HTTP 503 from the observer", t1);
      expect(store.report(id, null)?.status).toEqual({
        ...noDeliveries,
        delivered: 7,
        failed: 1,
        lastSuccessAt: "2026-01-02T03:04:05.000Z",
        lastFailureAt: "2026-01-02T03:04:05.000Z",
        lastError: "HTTP 503 from the observer",
      });
    }));

  it("keeps the latest success, failure and error when outcomes arrive out of order", () =>
    withStore("store-late", (store) => {
      const { id } = store.insert(http, undefined);
      store.recordSuccess(id, 1, t2);
      store.recordFailure(id, "newer", t2);
      store.recordFailure(id, "older", t1);
      store.recordSuccess(id, 2, t1);
      expect(store.report(id, null)?.status).toEqual({
        ...noDeliveries,
        delivered: 3,
        failed: 2,
        lastSuccessAt: "2026-01-02T03:05:05.000Z",
        lastFailureAt: "2026-01-02T03:05:05.000Z",
        lastError: "newer",
      });
    }));

  it("is failing from its first failure until a success", () =>
    withStore("store-failing", (store) => {
      const { id } = store.insert(http, undefined);
      store.recordFailure(id, "first", t1);
      store.recordFailure(id, "second", t2);
      expect(store.target(id, t2)?.ledger.failing_since).toBe(t1);
      store.schedule(id, t2, 3);
      store.recordSuccess(id, 1, t2);
      expect(store.target(id, t2)?.ledger).toMatchObject({ failing_since: null, retry_step: 0 });
    }));

  it("counts backlog, dead and dropped data, and shows the next attempt only while there is a backlog to try", () =>
    withStore("store-backlog", (store) => {
      const { id } = store.insert(http, undefined);
      store.adjustBacklog(id, { pending: 10 });
      store.adjustBacklog(id, { pending: -4, dead: 4 });
      store.adjustBacklog(id, { dead: -1, dropped: 1 });
      store.schedule(id, t2, 2);
      expect(store.report(id, t1)?.status).toMatchObject({
        backlog: 6,
        dead: 3,
        dropped: 1,
        lost: 4,
        oldestBacklogAt: "2026-01-02T03:04:05.000Z",
        nextAttemptAt: "2026-01-02T03:05:05.000Z",
      });
      expect(store.target(id, t1)?.ledger).toMatchObject({ backlog: 6, dead: 3, retry_step: 2, next_attempt_at: t2 });

      store.change(id, { state: "paused" });
      expect(store.report(id, t1)?.status.nextAttemptAt).toBeNull();
      store.change(id, { state: "active" });
      store.adjustBacklog(id, { pending: -6 });
      expect(store.report(id, null)?.status.nextAttemptAt).toBeNull();
    }));

  it("finds the active observers whose backlog is due, in registration order", () =>
    withStore("store-due", (store) => {
      const [early, late, paused, empty, disabled] = [
        http,
        tcp,
        udp,
        ipv6,
        { ...http, callbackUrl: "http://d.example/" },
      ].map((registration) => store.insert(registration, undefined).id);
      for (const id of [early!, late!, paused!, disabled!]) store.adjustBacklog(id, { pending: 1 });
      store.schedule(late!, t2, 1);
      store.schedule(early!, t1, 1);
      store.schedule(paused!, t1 - 1, 1);
      store.schedule(empty!, t1 - 2, 0);
      store.schedule(disabled!, t1 - 3, 1);
      store.change(paused!, { state: "paused" });
      store.disable(disabled!);

      expect(store.nextDue()).toBe(t1);
      expect(store.due(t1 - 1)).toEqual([]);
      expect(store.due(t1)).toEqual([early]);
      expect(store.due(t2)).toEqual([early, late]);
      expect(store.target(disabled!, t1)?.ledger.state).toBe("disabled");
    }));

  it("numbers each observer's logged attempts from 1", () =>
    withStore("store-sequence", (store) => {
      const first = store.insert(http, undefined).id;
      const second = store.insert(tcp, undefined).id;
      expect([first, first, second, first].map((id) => store.nextAttemptSequence(id))).toEqual([1, 2, 1, 3]);
    }));

  it("removes one observer, and reports whether there was one", () =>
    withStore("store-remove", (store) => {
      const kept = store.insert(http, undefined);
      const removed = store.insert(tcp, undefined);
      expect(store.remove(removed.id)).toBe(true);
      expect(store.remove(removed.id)).toBe(false);
      expect(store.list()).toEqual([kept]);
      expect(store.report(removed.id, null)).toBeUndefined();
      expect(store.findSameTarget(tcp)).toBeUndefined();
      expect(store.count()).toBe(1);
    }));

  it("clears every observer, after which a target can be registered again", () =>
    withStore("store-clear", (store) => {
      const [first] = [http, tcp, udp].map((registration) => store.insert(registration, undefined));
      store.clear();
      expect(store.count()).toBe(0);
      expect(store.list()).toEqual([]);
      expect(store.targets(t1)).toEqual([]);
      const again = store.insert(http, undefined);
      expect(again.id).not.toBe(first!.id);
      expect(store.list()).toEqual([again]);
    }));

  it("keeps its observers across store instances on the same storage", async () => {
    const created = await withStore("store-persisted", (store) => [
      store.insert(http, undefined),
      store.insert(tcp, secret),
    ]);
    expect(await withStore("store-persisted", (store) => store.list())).toEqual(created);
  });
});
