import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CollectorStore, expiryOf } from "./collector-store";
import { type Descriptor, descriptorSchema } from "./descriptor-schema";

function withStore<T>(name: string, work: (store: CollectorStore) => T): Promise<T> {
  return runInDurableObject(env.COLLECTOR_REGISTRY.getByName(`store-test-${name}`), (_, state) =>
    work(new CollectorStore(state.storage.sql)),
  );
}

const descriptor = (keepAlive: number): Descriptor => descriptorSchema.parse({ keepAlive, configSyncPeriod: 30 });

describe("CollectorStore", () => {
  it("keeps a registration and replaces it under the same id", () =>
    withStore("replace", (store) => {
      store.put("dc", descriptor(45), 1_000);
      store.put("dc", descriptor(60), 2_000);
      expect(store.list()).toEqual([{ id: "dc", descriptor: descriptor(60), registeredAt: 2_000, lastHeardAt: 2_000 }]);
    }));

  it("finds the collectors silent for their keep-alive, and the next expiry", () =>
    withStore("expiry", (store) => {
      store.put("short", descriptor(10), 0);
      store.put("long", descriptor(60), 0);
      store.put("never", descriptor(0), 0);
      expect(store.nextExpiry()).toBe(10_000);
      expect(store.expired(9_999)).toEqual([]);
      expect(store.expired(10_000)).toEqual(["short"]);
      store.heard("short", 55_000);
      expect(store.nextExpiry()).toBe(60_000);
      store.delete(["long"]);
      expect(store.nextExpiry()).toBe(65_000);
      expect(store.list().map((collector) => collector.id)).toEqual(["never", "short"]);
    }));

  it("knows no expiry when no collector can expire", () =>
    withStore("none", (store) => {
      store.put("never", descriptor(-5), 0);
      expect(store.nextExpiry()).toBeNull();
      expect(store.expired(Number.MAX_SAFE_INTEGER)).toEqual([]);
    }));
});

describe("expiryOf", () => {
  it("is the last contact plus the keep-alive, or never", () => {
    expect(expiryOf({ descriptor: descriptor(45), lastHeardAt: 1_000 })).toBe(46_000);
    expect(expiryOf({ descriptor: descriptor(0), lastHeardAt: 1_000 })).toBeNull();
  });
});
