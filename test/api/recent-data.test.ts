import { describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import { expectProblem, request, sendJson } from "./support/http";
import { recentData, waitForData } from "./support/recent-data";

describe("GET /metrics/:id/data", () => {
  it("answers the metric's latest consumed data, newest first, within the limit", async () => {
    const data = [1, 2, 3].map((n) => ({
      id: `recent-${n}`,
      metric: "recent.cpu",
      timestamp: 1_000 * n,
      value: n / 10,
      resourceId: `vm${n}`,
    }));
    expect((await sendJson("POST", "/v1/monitoringdata", rdfJsonBody(data))).status).toBe(204);

    expect(await waitForData("recent.cpu", 3)).toEqual([
      { id: "recent-3", resourceId: "vm3", value: 0.3, timestamp: 3_000 },
      { id: "recent-2", resourceId: "vm2", value: 0.2, timestamp: 2_000 },
      { id: "recent-1", resourceId: "vm1", value: 0.1, timestamp: 1_000 },
    ]);
    expect(await (await recentData("recent.cpu", "?limit=1")).json()).toEqual([
      { id: "recent-3", resourceId: "vm3", value: 0.3, timestamp: 3_000 },
    ]);
    const metric = (await (await request("GET", "/v1/metrics/recent.cpu")).json()) as {
      dataAccepted: number;
      acceptedPerMinute: number[];
    };
    expect(metric.dataAccepted).toBe(3);
    expect(metric.acceptedPerMinute).toHaveLength(10);
    expect(metric.acceptedPerMinute.at(-1)).toBe(3);
  });

  it("answers an empty list for a declared metric without data, 404 for an unknown one, 400 for a bad limit", async () => {
    expect((await request("PUT", "/v1/metrics/recent.quiet")).status).toBe(201);
    expect(await (await recentData("recent.quiet")).json()).toEqual([]);
    await expectProblem(await recentData("recent.never"), 404, {
      type: "urn:tower-edge:problem:not-found",
      title: "Resource not found",
      status: 404,
      detail: expect.stringContaining("recent.never"),
    });
    expect((await recentData("recent.quiet", "?limit=1001")).status).toBe(400);
    expect((await recentData("recent.quiet", "?limit=0")).status).toBe(400);
  });
});
