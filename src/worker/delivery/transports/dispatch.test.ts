import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../config";
import { instanceId } from "../../ops/instance-id";
import type { Delivery } from "../../vocabulary/delivery";
import { executeDeliveries } from "./dispatch";

const config = () => readConfig(env);

// An isolate's first delivery reads the service's instance id (tower-edge-via) once: read it before budgets are timed.
beforeAll(() => instanceId(env));

/** One HTTP delivery of one datum to observer `id`, at http://<id>.example/. */
function delivery(id: string): Delivery {
  return {
    target: {
      id,
      format: "TOWER/JSON",
      protocol: "HTTP",
      callbackUrl: `http://${id}.example/`,
      secrets: [],
      headers: {},
    },
    runs: [["dispatched", [["d1", 1_000, 1, "vm1"]]]],
    lane: id,
    webhookId: `msg_${id}`,
    attempt: 1,
  };
}

/** Observers that answer 204 after `answerMs`; each request's URL, in the order they were made. */
function observersAnsweringAfter(answerMs: number): string[] {
  const requested: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (url) => {
    requested.push(String(url));
    await new Promise((resolve) => setTimeout(resolve, answerMs));
    return new Response(null, { status: 204 });
  });
  return requested;
}

const observerIds = (count: number) => Array.from({ length: count }, (_, index) => `o${index}`);

describe("executeDeliveries within a budget", () => {
  afterEach(() => vi.restoreAllMocks());

  it("lets a delivery under way when the batch's budget ends finish: it is delivered, not sent again", async () => {
    // Six connections: the seventh delivery starts when the first six end, and ends after the budget.
    const requested = observersAnsweringAfter(200);

    const results = await executeDeliveries(observerIds(7).map(delivery), config(), 300);

    expect(requested).toHaveLength(7);
    expect(results.map(({ ok, deferred }) => ({ ok, deferred }))).toEqual(
      Array.from({ length: 7 }, () => ({ ok: true, deferred: undefined })),
    );
  });

  it("starts no delivery once the batch's budget is spent, and makes no request for it", async () => {
    const requested = observersAnsweringAfter(200);

    const results = await executeDeliveries(observerIds(13).map(delivery), config(), 300);

    // Two rounds of six start within the budget (at 0 and 200 ms); the thirteenth would start at 400 ms.
    expect(requested).toHaveLength(12);
    expect(requested).not.toContain("http://o12.example/");
    expect(results.filter((result) => result.ok)).toHaveLength(12);
    expect(results.find((result) => result.delivery.target.id === "o12")).toMatchObject({
      ok: false,
      deferred: true,
      error: "not started within the batch's budget; continued from the backlog",
    });
  });

  it("cuts a request to any other observer that has not been answered a whole budget after it was sent", async () => {
    let signal: AbortSignal | undefined;
    vi.spyOn(globalThis, "fetch").mockImplementation((_, init) => {
      signal = init?.signal ?? undefined;
      return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal?.reason)));
    });

    const [result] = await executeDeliveries([delivery("hung")], config(), 100);

    expect(signal?.aborted).toBe(true);
    expect(result).toMatchObject({
      ok: false,
      deferred: true,
      error: "not answered within the batch's budget; continued from the backlog",
    });
  });

  it("waits for each request as long as its delivery's answerWaitMs, whether shorter or longer than the budget", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_, init) =>
        new Promise((resolve, reject) => {
          const answer = setTimeout(() => resolve(new Response(null, { status: 204 })), 300);
          init?.signal?.addEventListener("abort", () => {
            clearTimeout(answer);
            reject(init.signal?.reason);
          });
        }),
    );

    const [quick, patient] = await executeDeliveries(
      [
        { ...delivery("quick"), answerWaitMs: 50 },
        { ...delivery("patient"), answerWaitMs: 1_000 },
      ],
      config(),
      100,
    );

    expect(quick).toMatchObject({ ok: false, deferred: true });
    expect(quick!.latencyMs).toBeLessThan(300);
    expect(patient).toMatchObject({ ok: true, httpStatus: 204 });
  });

  it("lets observers taken for hung hold none of the six connections for long: the others' deliveries start", async () => {
    const hung = new Set(observerIds(6).map((id) => `http://${id}.example/`));
    vi.spyOn(globalThis, "fetch").mockImplementation((url, init) =>
      hung.has(String(url))
        ? new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)))
        : Promise.resolve(new Response(null, { status: 204 })),
    );

    const results = await executeDeliveries(
      [...observerIds(6), "healthy"].map((id) => ({ ...delivery(id), answerWaitMs: 50 })),
      config(),
      1_000,
    );

    expect(results.at(-1)).toMatchObject({ ok: true, delivery: { target: { id: "healthy" } } });
    expect(results.filter((result) => result.deferred)).toHaveLength(6);
  });

  it("sends an observer's payloads one after the other, and none behind one it did not take", async () => {
    const bodies: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_, init) => {
      bodies.push(String(init?.body));
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight -= 1;
      return new Response(null, { status: bodies.length === 3 ? 500 : 204 });
    });
    const payloads = [1, 2, 3, 4].map((value) => ({
      ...delivery("ordered"),
      runs: [["dispatched", [[`d${value}`, 1_000, value, "vm1"]]]] as Delivery["runs"],
    }));

    const results = await executeDeliveries(payloads, config(), 1_000);

    expect(mostInFlight).toBe(1);
    expect(bodies.map((body) => (JSON.parse(body) as { value: number }[])[0]?.value)).toEqual([1, 2, 3]);
    expect(results.map(({ ok, deferred }) => [ok, deferred ?? false])).toEqual([
      [true, false],
      [true, false],
      [false, false],
      [false, true],
    ]);
    expect(results[3]?.error).toBe(
      "not sent behind an earlier payload the observer did not take; continued from the backlog",
    );
  });

  it("gives a delivery without a budget the whole DELIVERY_TIMEOUT_MS, as a failure when it runs out", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_, init) =>
        new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason))),
    );

    const [result] = await executeDeliveries([delivery("hung")], { ...config(), DELIVERY_TIMEOUT_MS: 100 });

    expect(result).toMatchObject({ ok: false, error: "no answer within 100 ms" });
    expect(result?.deferred).toBeUndefined();
  });
});
