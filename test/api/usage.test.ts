import { describe, expect, it, vi } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import { clientAt } from "./support/client";
import { sendJson } from "./support/http";

async function readUsage() {
  const response = await clientAt("/v1").usage.$get();
  expect(response.status).toBe(200);
  return response.json();
}

describe("GET /usage", () => {
  it("counts data accepted, queue messages written and read, and Durable Object requests", async () => {
    const before = await readUsage();
    const data = [1, 2, 3].map((index) => ({
      id: `u${index}`,
      metric: "usage-counted",
      timestamp: 1000 * index,
      value: index,
      resourceId: "vm1",
    }));
    expect((await sendJson("POST", "/monitoringdata", rdfJsonBody(data))).status).toBe(204);

    const accepted = await readUsage();
    expect(accepted.dataAccepted - before.dataAccepted).toBe(3);
    expect(accepted.queueMessagesWritten - before.queueMessagesWritten).toBe(1);
    // Registering the new metric is one request to its Durable Object.
    expect(accepted.durableObjectRequests - before.durableObjectRequests).toBe(1);
    expect(accepted.durableObjectRequestsByBinding.METRIC - before.durableObjectRequestsByBinding.METRIC).toBe(1);

    // The consumer reads the message and asks the metric's object for its observers (none: no
    // delivery), then writes the metric's figures to its summary shard.
    const consumed = await vi.waitUntil(
      async () => {
        const current = await readUsage();
        return current.queueMessagesRead > accepted.queueMessagesRead ? current : undefined;
      },
      { timeout: 10_000 },
    );
    const done = await vi.waitUntil(
      async () => {
        const current = await readUsage();
        return current.durableObjectRequests === accepted.durableObjectRequests + 2 ? current : undefined;
      },
      { timeout: 10_000 },
    );
    const { METRIC, SUMMARY_SHARD } = done.durableObjectRequestsByBinding;
    expect([METRIC, SUMMARY_SHARD]).toEqual([
      accepted.durableObjectRequestsByBinding.METRIC + 1,
      accepted.durableObjectRequestsByBinding.SUMMARY_SHARD + 1,
    ]);
    expect(consumed.outboundRequests).toBe(accepted.outboundRequests);
  });

  it("lets concurrent intake requests share queue messages", async () => {
    const before = await readUsage();
    const requests = Array.from({ length: 20 }, (_, index) =>
      sendJson(
        "POST",
        "/monitoringdata",
        rdfJsonBody([
          { id: `shared${index}`, metric: "usage-shared", timestamp: 1000 + index, value: index, resourceId: "vm1" },
        ]),
      ),
    );
    expect((await Promise.all(requests)).map((response) => response.status)).toEqual(Array(20).fill(204));

    const accepted = await readUsage();
    expect(accepted.dataAccepted - before.dataAccepted).toBe(20);
    const written = accepted.queueMessagesWritten - before.queueMessagesWritten;
    expect(written).toBeGreaterThanOrEqual(1);
    expect(written).toBeLessThan(20);
  });
});
