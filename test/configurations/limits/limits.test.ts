import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { metricCatalogStub } from "../../../src/worker/metrics/metric-catalog";
import { type DatumInput, monitoringNamespace, rdfJsonBody } from "../../../tools/testing/monitoring-data";
import { expectProblem, request, sendJson } from "../../api/support/http";
import { readModel } from "../../api/support/resources";

/** The limits of the worker-limits project (vitest.config.ts). */
const limits = { bodyBytes: 4096, dataPerRequest: 3, observersPerMetric: 2, metricNameLength: 16 };

function data(count: number, metric: (index: number) => string): DatumInput[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `d${index}`,
    metric: metric(index),
    timestamp: 1_700_000_000_000 + index,
    value: index,
    resourceId: "vm1",
  }));
}

async function registeredMetrics(): Promise<string[]> {
  return metricCatalogStub(env).names();
}

const bodyTooLarge = {
  type: "urn:tower-edge:problem:payload-too-large",
  title: "Payload too large",
  status: 413,
  detail: `The body is larger than the limit of ${limits.bodyBytes} bytes.`,
};

/** A JSON model document of exactly `bytes` bytes. */
function modelOfSize(bytes: number): string {
  const frame = JSON.stringify({ cloudProviders: [{ id: "p", type: "" }] });
  return JSON.stringify({ cloudProviders: [{ id: "p", type: "t".repeat(bytes - frame.length) }] });
}

describe("MAX_BODY_BYTES", () => {
  it("takes a body of exactly the limit", async () => {
    const body = modelOfSize(limits.bodyBytes);
    expect(new TextEncoder().encode(body).length).toBe(limits.bodyBytes);
    const response = await request("PUT", "/resources", { body, headers: { "content-type": "application/json" } });
    expect(response.status).toBe(204);
  });

  it("refuses a body one byte over it with 413, and stores nothing", async () => {
    const before = await readModel();
    const body = modelOfSize(limits.bodyBytes + 1).replace('"p"', '"q"');
    const response = await request("PUT", "/resources", { body, headers: { "content-type": "application/json" } });
    await expectProblem(response, 413, bodyTooLarge);
    expect(await readModel()).toEqual(before);
  });

  it("refuses a streamed body without Content-Length once it passes the limit", async () => {
    const chunk = new TextEncoder().encode(`{"padding":"${"x".repeat(1_000)}`);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let sent = 0; sent <= limits.bodyBytes; sent += chunk.length) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await request("POST", "/monitoringdata", {
      body: stream,
      headers: { "content-type": "application/json" },
    });
    await expectProblem(response, 413, bodyTooLarge);
  });

  it("applies to monitoring data too, and registers no metric of a refused body", async () => {
    const body = rdfJsonBody(data(1, () => `big-${"m".repeat(8)}`));
    const subject = body.d0!;
    subject[`${monitoringNamespace}resourceId`]![0]!.value = "r".repeat(limits.bodyBytes);
    await expectProblem(await sendJson("POST", "/monitoringdata", body), 413, bodyTooLarge);
    expect(await registeredMetrics()).not.toContain("big-mmmmmmmm");
  });
});

describe("MAX_DATA_PER_REQUEST", () => {
  it("takes as many data as the limit", async () => {
    const response = await sendJson("POST", "/monitoringdata", rdfJsonBody(data(3, (index) => `within-${index}`)));
    expect(response.status).toBe(204);
    expect(await registeredMetrics()).toEqual(expect.arrayContaining(["within-0", "within-1", "within-2"]));
  });

  it.each(["/monitoringdata", "/v1/results"])("refuses one datum more at %s with 413; nothing queued", async (path) => {
    const response = await sendJson("POST", path, rdfJsonBody(data(4, (index) => `over-${index}`)));
    await expectProblem(response, 413, {
      type: "urn:tower-edge:problem:payload-too-large",
      title: "Payload too large",
      status: 413,
      detail: "The request holds 4 data; at most 3 are accepted per request.",
    });
    expect((await registeredMetrics()).filter((name) => name.startsWith("over-"))).toEqual([]);
  });
});

describe("MAX_OBSERVERS_PER_METRIC", () => {
  const observers = "/metrics/crowded/observers";
  const callback = (index: number) => ({ callbackUrl: `https://receiver.example/${index}` });

  it("refuses an observer beyond the limit with 409, knows registered ones, and frees a place on delete", async () => {
    expect((await request("PUT", "/metrics/crowded")).status).toBe(201);
    const first = await sendJson("POST", observers, callback(1));
    expect(first.status).toBe(201);
    expect((await sendJson("POST", observers, callback(2))).status).toBe(201);
    const listed = await (await request("GET", observers)).json();

    await expectProblem(await sendJson("POST", observers, callback(3)), 409, {
      type: "urn:tower-edge:problem:conflict",
      title: "Conflict",
      status: 409,
      detail: 'The metric "crowded" already has the maximum of 2 observers; remove one first.',
    });
    expect(await (await request("GET", observers)).json()).toEqual(listed);
    // Registering the same target again is not a new observer.
    expect((await sendJson("POST", observers, callback(2))).status).toBe(200);

    const { id } = await first.json<{ id: string }>();
    expect((await request("DELETE", `${observers}/${id}`)).status).toBe(204);
    expect((await sendJson("POST", observers, callback(3))).status).toBe(201);
  });
});

describe("MAX_METRIC_NAME_LENGTH", () => {
  const longest = "m".repeat(limits.metricNameLength);
  const tooLong = `${longest}x`;
  const message = `metric name must be at most ${limits.metricNameLength} characters long`;

  it("takes a name of the maximum length, counted in characters", async () => {
    expect((await request("PUT", `/metrics/${longest}`)).status).toBe(201);
    const astral = "😀".repeat(limits.metricNameLength);
    expect((await request("PUT", `/metrics/${encodeURIComponent(astral)}`)).status).toBe(201);
  });

  it("refuses a longer name in the path with 400", async () => {
    await expectProblem(await request("PUT", `/metrics/${tooLong}`), 400, {
      type: "urn:tower-edge:problem:validation-failed",
      title: "Request not valid",
      status: 400,
      detail: "The metric name in the path is not valid.",
      errors: [{ path: "/id", message }],
    });
    expect(await registeredMetrics()).not.toContain(tooLong);
  });

  it("refuses a datum naming a longer metric with 400 at its pointer, and queues nothing", async () => {
    const body = rdfJsonBody([...data(1, () => "short"), { ...data(1, () => tooLong)[0]!, id: "long" }]);
    const response = await sendJson("POST", "/monitoringdata", body);
    expect(response.status).toBe(400);
    const problem = await response.json<{ errors: { path: string; message: string }[] }>();
    expect(problem.errors).toEqual([
      {
        path: `/long/${monitoringNamespace.replaceAll("/", "~1")}metric/0/value`,
        message: `Metric name must be at most ${limits.metricNameLength} characters long.`,
      },
    ]);
    expect(await registeredMetrics()).not.toContain("short");
  });
});
