import { describe, expect, it } from "vitest";
import type { TcpDelivery } from "../shared/relay-contract.ts";
import { RelayCounters } from "./counters.ts";
import { DeliveryDispatcher, type DispatcherParts } from "./dispatcher.ts";

/** A dispatcher whose TCP destinations on port 1 never finish a delivery, and on port 2 fail at once. */
function dispatcher(counters = new RelayCounters()) {
  const tcp = {
    deliver: (_host: string, port: number) =>
      port === 1
        ? new Promise<void>(() => undefined)
        : port === 2
          ? Promise.reject(new Error("refused"))
          : Promise.resolve(),
    close: () => undefined,
  };
  return new DeliveryDispatcher({ tcp, counters, maxDatagramBytes: 512 } as unknown as DispatcherParts);
}

const delivery = (id: string, port: number, payload = "cpu 1 1\n"): TcpDelivery => ({
  id,
  protocol: "TCP",
  host: "127.0.0.1",
  port,
  payload,
});

describe("DeliveryDispatcher.deliverAll", () => {
  it("answers one result per delivery, in their order", async () => {
    const results = await dispatcher().deliverAll([delivery("a", 3), delivery("b", 2), delivery("c", 3, "é\n")]);
    expect(results).toEqual([
      { id: "a", ok: true, bytes: 8 },
      { id: "b", ok: false, error: "refused" },
      { id: "c", ok: true, bytes: 3 },
    ]);
  });

  it("answers a delivery still under way at the deadline as pending, and the others as they ended", async () => {
    const counters = new RelayCounters();
    const results = await dispatcher(counters).deliverAll(
      [delivery("slow", 1), delivery("done", 3), delivery("failed", 2)],
      50,
    );
    expect(results).toEqual([
      { id: "slow", ok: false, pending: true },
      { id: "done", ok: true, bytes: 8 },
      { id: "failed", ok: false, error: "refused" },
    ]);
    expect(await counters.render()).toContain('relay_failures_total{protocol="tcp"} 1\n');
  });

  it("answers as soon as every delivery has ended, without waiting for the deadline", async () => {
    const started = performance.now();
    const results = await dispatcher().deliverAll([delivery("a", 3)], 60_000);
    expect(results).toEqual([{ id: "a", ok: true, bytes: 8 }]);
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
