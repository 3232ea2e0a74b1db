import { describe, expect, it } from "vitest";
import { clientAt, idParam } from "./support/client";
import { expectProblem, prefixes, request, sendJson, validationProblem } from "./support/http";
import { addObserver, declareMetric, listObservers, metricPath } from "./support/metrics";

async function readMetric(name: string, prefix = "") {
  const response = await clientAt(prefix).metrics[":id"].$get({ param: idParam(name) });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

function unknownMetricProblem(name: string) {
  return {
    type: "urn:tower-edge:problem:not-found",
    title: "Resource not found",
    status: 404,
    detail: `There is no metric ${JSON.stringify(name)}.`,
  };
}

const declarationDetail = "The request has problems; see errors.";
const pathDetail = "The metric name in the path is not valid.";

describe.each(prefixes)("metrics under %o", (prefix) => {
  // Both prefixes share the file's storage, so each run uses names of its own.
  const name = (local: string) => `${local}-${prefix ? "v1" : "root"}`;

  it("declares a metric: 201 the first time, then 200", async () => {
    const cpu = name("cpu");
    const metric = clientAt(prefix).metrics[":id"];
    const first = await metric.$put({ param: idParam(cpu) });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ id: cpu, observers: 0 });

    const again = await metric.$put({ param: idParam(cpu), json: { description: "CPU load", unit: "percent" } });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: cpu, description: "CPU load", unit: "percent", observers: 0 });
    expect(await readMetric(cpu, prefix)).toMatchObject({
      id: cpu,
      description: "CPU load",
      unit: "percent",
      observers: 0,
    });
  });

  it("accepts a declaration with a body, an empty JSON object, or an empty body", async () => {
    const withBody = await sendJson("PUT", metricPath(name("with-body"), prefix), { unit: "ms" });
    expect(withBody.status).toBe(201);
    expect(await withBody.json()).toMatchObject({ id: name("with-body"), unit: "ms", observers: 0 });

    expect((await sendJson("PUT", metricPath(name("empty-object"), prefix), {})).status).toBe(201);

    const emptyJson = await request("PUT", metricPath(name("empty-json"), prefix), {
      body: "",
      headers: { "content-type": "application/json" },
    });
    expect(emptyJson.status).toBe(201);
    expect(await readMetric(name("empty-json"), prefix)).toMatchObject({ id: name("empty-json"), observers: 0 });
  });

  it("replaces the description and unit on a re-declaration (PUT semantics)", async () => {
    const latency = name("latency");
    const metric = clientAt(prefix).metrics[":id"];
    await metric.$put({ param: idParam(latency), json: { description: "Response time", unit: "ms" } });
    const redeclared = await metric.$put({ param: idParam(latency) });
    expect(redeclared.status).toBe(200);
    expect(await redeclared.json()).toMatchObject({ id: latency, observers: 0 });
    expect(await readMetric(latency, prefix)).toMatchObject({ id: latency, observers: 0 });
  });

  it("serves names with spaces and non-ASCII characters, percent-encoded in the path", async () => {
    const fancy = name("Front end CPU ü ☃");
    await declareMetric(fancy, prefix);
    expect(await readMetric(fancy, prefix)).toMatchObject({ id: fancy, observers: 0 });
  });

  it("counts the metric's observers", async () => {
    const memory = name("memory");
    await declareMetric(memory, prefix);
    await addObserver(memory, { callbackUrl: "http://one.example/" }, prefix);
    await addObserver(memory, { protocol: "UDP", observerHost: "10.0.0.1", observerPort: 8125 }, prefix);
    expect(await readMetric(memory, prefix)).toMatchObject({ id: memory, observers: 2 });
  });

  it("answers 404 for an unknown metric", async () => {
    const never = name("never");
    await expectProblem(await request("GET", metricPath(never, prefix)), 404, unknownMetricProblem(never));
    await expectProblem(await request("DELETE", metricPath(never, prefix)), 404, unknownMetricProblem(never));
  });

  it("deletes a metric with its observers; a re-declared metric starts without observers", async () => {
    const disk = name("disk");
    await declareMetric(disk, prefix);
    await addObserver(disk, { callbackUrl: "http://disk.example/" }, prefix);

    const deleted = await clientAt(prefix).metrics[":id"].$delete({ param: idParam(disk) });
    expect({ status: deleted.status, body: await deleted.text() }).toEqual({ status: 204, body: "" });
    await expectProblem(await request("GET", metricPath(disk, prefix)), 404, unknownMetricProblem(disk));
    await expectProblem(await request("DELETE", metricPath(disk, prefix)), 404, unknownMetricProblem(disk));

    await declareMetric(disk, prefix);
    expect(await readMetric(disk, prefix)).toMatchObject({ id: disk, observers: 0 });
    expect(await listObservers(disk, prefix)).toEqual([]);
  });

  it("rejects an invalid declaration and stores nothing", async () => {
    const rejected = name("rejected");
    await expectProblem(
      await sendJson("PUT", metricPath(rejected, prefix), { description: 42, unit: ["ms"], colour: "red" }),
      400,
      validationProblem(declarationDetail, [
        { path: "/description", message: "Invalid input: expected string, received number" },
        { path: "/unit", message: "Invalid input: expected string, received array" },
        { path: "/colour", message: "Unknown field." },
      ]),
    );
    await expectProblem(await request("GET", metricPath(rejected, prefix)), 404, unknownMetricProblem(rejected));
  });

  it("keeps the stored declaration when a re-declaration is rejected", async () => {
    const kept = name("kept");
    await sendJson("PUT", metricPath(kept, prefix), { description: "stays" });
    for (const body of ['{"unit":', "[]", "null"]) {
      const response = await request("PUT", metricPath(kept, prefix), {
        body,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(400);
    }
    const notJson = await request("PUT", metricPath(kept, prefix), {
      body: "unit=ms",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(notJson.status).toBe(415);
    expect(await readMetric(kept, prefix)).toMatchObject({ id: kept, description: "stays", observers: 0 });
  });

  it.each([
    ["a name with a slash", "a%2Fb", 'metric name must not contain "/"'],
    ["a name with a control character", "a%01b", "metric name must not contain control characters"],
    ["a name with a newline", "a%0Ab", "metric name must not contain control characters"],
    ["a name over 256 characters", "x".repeat(257), "metric name must be at most 256 characters long"],
  ])("rejects %s in the path with 400 on every metric route", async (_, segment, message) => {
    const problem = validationProblem(pathDetail, [{ path: "/id", message }]);
    for (const method of ["PUT", "GET", "DELETE"]) {
      await expectProblem(await request(method, `${prefix}/metrics/${segment}`), 400, problem);
    }
    await expectProblem(await request("GET", `${prefix}/metrics/${segment}/observers`), 400, problem);
  });

  it("accepts a name of exactly 256 characters", async () => {
    const longest = name("y".repeat(256 - name("").length));
    expect(longest).toHaveLength(256);
    await declareMetric(longest, prefix);
    expect(await readMetric(longest, prefix)).toMatchObject({ id: longest, observers: 0 });
  });
});

describe("metric routes and methods", () => {
  it("answers 405 with Allow for a wrong method", async () => {
    const onMetric = await request("POST", "/v1/metrics/cpu");
    expect(onMetric.status).toBe(405);
    expect(onMetric.headers.get("allow")).toBe("DELETE, GET, HEAD, PUT");
    const onCatalog = await request("DELETE", "/metrics");
    expect(onCatalog.status).toBe(405);
    expect(onCatalog.headers.get("allow")).toBe("GET, HEAD");
  });
});
