import { afterEach, describe, expect, it, vi } from "vitest";
import { request, sendJson } from "../../../test/api/support/http";
import { consumeGroups } from "../../../test/api/support/intake-batches";
import { addObserver, declareMetric, observersPath } from "../../../test/api/support/metrics";
import type { Summary } from "./summary-schema";

const summary = async (prefix = "") => (await (await request("GET", `${prefix}/summary`)).json()) as Summary;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("GET /summary", () => {
  it("answers a declared metric and its new observer at once, under /v1 too", async () => {
    await sendJson("PUT", "/metrics/summary_declared", { description: "Declared", unit: "ms" });
    const observer = await addObserver("summary_declared", { format: "TOWER/JSON", callbackUrl: "http://s.example/" });
    for (const prefix of ["", "/v1"]) {
      const answer = await summary(prefix);
      expect(answer.metrics.find((metric) => metric.id === "summary_declared")).toEqual({
        id: "summary_declared",
        description: "Declared",
        unit: "ms",
        observers: 1,
        dataAccepted: 0,
        acceptedPerMinute: new Array(10).fill(0),
        dataPerSecond: 0,
        latestDatumAt: null,
        failingObservers: 0,
        backloggedObservers: 0,
        backlog: 0,
      });
      expect(answer.observers).toContainEqual(expect.objectContaining({ id: observer.id, metric: "summary_declared" }));
    }
  });

  it("shows a consumed batch's data and what became of its deliveries", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(null, { status: 503 }));
    await declareMetric("summary_consumed");
    const observer = await addObserver("summary_consumed", {
      format: "TOWER/JSON",
      callbackUrl: "http://down.example/",
    });
    await consumeGroups([
      [
        { id: "sc-1", metric: "summary_consumed", timestamp: 1_000, value: 1, resourceId: "vm1" },
        { id: "sc-2", metric: "summary_consumed", timestamp: 2_000, value: 2, resourceId: "vm1" },
      ],
    ]);
    const answer = await summary();
    expect(answer.metrics.find((metric) => metric.id === "summary_consumed")).toMatchObject({
      dataAccepted: 2,
      latestDatumAt: 2_000,
      failingObservers: 1,
      backloggedObservers: 1,
      backlog: 2,
    });
    expect(answer.metrics.find((metric) => metric.id === "summary_consumed")?.dataPerSecond).toBeGreaterThan(0);
    expect(answer.observers.find((listed) => listed.id === observer.id)).toMatchObject({
      status: { backlog: 2, failed: 1 },
    });
    expect(answer.intake.dataAccepted).toBeGreaterThanOrEqual(2);
  });

  it("forgets a removed observer and a deleted metric", async () => {
    await declareMetric("summary_deleted");
    const observer = await addObserver("summary_deleted", {
      format: "TOWER/JSON",
      callbackUrl: "http://gone.example/",
    });
    expect((await request("DELETE", `${observersPath("summary_deleted")}/${observer.id}`)).status).toBe(204);
    expect((await summary()).observers.some((listed) => listed.id === observer.id)).toBe(false);
    expect((await request("DELETE", "/metrics/summary_deleted")).status).toBe(204);
    expect((await summary()).metrics.some((metric) => metric.id === "summary_deleted")).toBe(false);
  });
});
