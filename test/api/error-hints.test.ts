import { describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import { expectProblem, request, sendJson, validationProblem } from "./support/http";
import { addObserver, declareMetric, notFoundProblem, observersPath } from "./support/metrics";

/*
 * The refusals that tell the client what it probably meant: a metric of a close name, an enum
 * value of a close spelling, where OTLP goes, a rule document's missing wrapper; and the answers
 * that tell the truth about time and about UDP.
 */

describe("a metric that does not exist", () => {
  it("is answered with the known metric of a close name, on every /metrics/:id route", async () => {
    await declareMetric("hint.node_load1");
    const meant = 'There is no metric "hint.node_load_1"; did you mean "hint.node_load1"?';
    const registration = { format: "GRAPHITE", protocol: "TCP", observerHost: "10.0.0.1", observerPort: 2003 };
    await expectProblem(
      await sendJson("POST", observersPath("hint.node_load_1", "/v1"), registration),
      404,
      notFoundProblem(meant),
    );
    for (const path of [
      "/metrics/hint.node_load_1",
      "/metrics/hint.node_load_1/data",
      "/v1/metrics/hint.node_load_1/observers",
    ]) {
      await expectProblem(await request("GET", path), 404, notFoundProblem(meant));
    }
  });

  it("is answered without a suggestion when no known name is close", async () => {
    await expectProblem(
      await request("GET", "/metrics/hint.nothing.like.it"),
      404,
      notFoundProblem('There is no metric "hint.nothing.like.it".'),
    );
  });
});

describe("an enum value of a close spelling", () => {
  it("is answered with the value probably meant", async () => {
    await declareMetric("hint.formats");
    const response = await sendJson("POST", observersPath("hint.formats"), {
      format: "influx",
      callbackUrl: "http://receiver.example/",
    });
    await expectProblem(
      response,
      400,
      validationProblem("The request has problems; see errors.", [
        {
          path: "/format",
          message:
            "The format must be one of RDF/JSON, TOWER/JSON, GRAPHITE, INFLUXDB, PROMETHEUS, OTLP, OTLP/JSON (in any " +
            'case); did you mean "INFLUXDB"?',
        },
      ]),
    );
    const protocol = await sendJson("POST", observersPath("hint.formats"), {
      protocol: "UPD",
      observerHost: "10.0.0.1",
      observerPort: 8125,
    });
    expect(await protocol.json()).toMatchObject({
      errors: [{ path: "/protocol", message: expect.stringMatching(/; did you mean "UDP"\?$/) }],
    });
  });
});

describe("POST /metrics, where OTLP exporters given the service's root send", () => {
  it.each(["/v1/metrics", "/metrics"])(
    "answers 405 at %s, naming the OTLP route and the variable to set",
    async (path) => {
      const response = await request("POST", path, { body: "{}", headers: { "content-type": "application/json" } });
      expect(response.headers.get("allow")).toBe("GET, HEAD");
      await expectProblem(response, 405, {
        type: "urn:tower-edge:problem:method-not-allowed",
        title: "Method not allowed",
        status: 405,
        detail:
          `POST is not allowed on ${path}. OTLP metrics go to /otlp/v1/metrics: set ` +
          "OTEL_EXPORTER_OTLP_ENDPOINT=http://service/otlp (or OTEL_EXPORTER_OTLP_METRICS_ENDPOINT=" +
          "http://service/otlp/v1/metrics).",
      });
    },
  );
});

describe("rules sent without the document around them", () => {
  const rule = {
    id: "hint-unwrapped",
    timeStep: 60,
    timeWindow: 60,
    monitoredTargets: [{ class: "VM" }],
    collectedMetric: { metricName: "hint.cpu" },
    actions: [{ name: "OutputMetric", parameters: { metric: "hint.cpu.out" } }],
  };
  const notADocument = "The body is not a rule document; nothing was installed.";

  it("are one problem for a rule alone", async () => {
    await expectProblem(
      await sendJson("POST", "/monitoring-rules", rule),
      400,
      validationProblem(notADocument, [
        { path: "", message: 'The body is a single rule, not a rule document: wrap it as {"monitoringRules": [ … ]}.' },
      ]),
    );
  });

  it("are one problem for an array of rules", async () => {
    await expectProblem(
      await sendJson("POST", "/monitoring-rules", [rule]),
      400,
      validationProblem(notADocument, [
        { path: "", message: 'The body is an array, not a rule document: wrap it as {"monitoringRules": [ … ]}.' },
      ]),
    );
    expect((await request("GET", "/monitoring-rules/hint-unwrapped")).status).toBe(404);
  });
});

/** The count of `tower_intake_far_from_now_total` for `route`. */
async function farFromNow(route: string): Promise<number> {
  const text = await (await request("GET", "/prometheus")).text();
  const sample = new RegExp(`^tower_intake_far_from_now_total\\{route="${route}"\\} (\\d+)$`, "m").exec(text);
  if (!sample) throw new Error(`no far-from-now sample of ${route}`);
  return Number(sample[1]);
}

describe("data stamped far from now", () => {
  it("are accepted and counted per route: seconds read as milliseconds, or more than a day ahead", async () => {
    const before = await farFromNow("/monitoringdata");
    const now = Date.now();
    const data = [
      { id: "far-1", metric: "hint.far", timestamp: Math.floor(now / 1000), value: 1, resourceId: "vm1" },
      { id: "far-2", metric: "hint.far", timestamp: now + 2 * 86_400_000, value: 2, resourceId: "vm1" },
      { id: "near", metric: "hint.far", timestamp: now, value: 3, resourceId: "vm1" },
    ];
    expect((await sendJson("POST", "/monitoringdata", rdfJsonBody(data))).status).toBe(204);
    expect(await farFromNow("/monitoringdata")).toBe(before + 2);
  });

  it("are counted on the agents' routes: line protocol in milliseconds without precision=", async () => {
    const before = await farFromNow("/write");
    const body = `hint_far,host=vm1 value=1 ${Date.now()}\nhint_far,host=vm1 value=2 ${Date.now()}000000\n`;
    const response = await request("POST", "/write", { body, headers: { "content-type": "text/plain" } });
    expect(response.status).toBe(204);
    expect(await farFromNow("/write")).toBe(before + 1);
  });
});

describe("a UDP observer's status", () => {
  it("says that its deliveries cannot be acknowledged, and an HTTP observer's that they are", async () => {
    await declareMetric("hint.udp");
    const udp = await addObserver("hint.udp", {
      format: "GRAPHITE",
      protocol: "UDP",
      observerHost: "10.0.0.1",
      observerPort: 8125,
    });
    const http = await addObserver("hint.udp", { callbackUrl: "http://receiver.example/udp" });
    const statusOf = async (id: string) =>
      ((await (await request("GET", `${observersPath("hint.udp")}/${id}`)).json()) as { status: object }).status;
    expect(await statusOf(String(udp.id))).toMatchObject({ acknowledgement: "sent-unacknowledged" });
    expect(await statusOf(String(http.id))).toMatchObject({ acknowledgement: "acknowledged" });
  });
});
