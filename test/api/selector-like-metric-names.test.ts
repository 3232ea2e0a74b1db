import { describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data";
import { encodedStream } from "../support/data-collectors";
import { expectProblem, prefixes, request, sendJson, validationProblem } from "./support/http";
import { metricPath, observersPath } from "./support/metrics";

const selectorAdvice =
  'must not contain "*", "{" or "}": to follow many metrics, register an observer with a selector at POST /observers';
const selectorMessage = `metric name ${selectorAdvice}`;

/** Names that look like selectors. */
const selectorLike = ["node_*", '{job="node"}', "cpu{mode}", "*"];

async function expectNoMetric(name: string): Promise<void> {
  expect((await request("GET", metricPath(name))).status).toBe(404);
}

describe.each(prefixes)("a metric name holding *, { or } under %o", (prefix) => {
  it.each(selectorLike)("is refused with 400 in the path of every metric route: %s", async (name) => {
    const problem = validationProblem("The metric name in the path is not valid.", [
      { path: "/id", message: selectorMessage },
    ]);
    for (const method of ["PUT", "GET", "DELETE"]) {
      await expectProblem(await request(method, metricPath(name, prefix)), 400, problem);
    }
    await expectProblem(await request("GET", observersPath(name, prefix)), 400, problem);
    await expectProblem(
      await sendJson("POST", observersPath(name, prefix), { callbackUrl: "http://selector.example/" }),
      400,
      problem,
    );
  });
});

describe("a datum of a metric named like a selector", () => {
  it("is refused by POST /monitoringdata with the whole request", async () => {
    const data = [
      { id: "d1", metric: "selector.like.fine", timestamp: 1_700_000_000_000, value: 1, resourceId: "vm1" },
      { id: "d2", metric: "selector.like.*", timestamp: 1_700_000_000_000, value: 1, resourceId: "vm1" },
    ];
    const response = await sendJson("POST", "/monitoringdata", rdfJsonBody(data));

    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { message: string }[] };
    expect(problem.errors.map(({ message }) => message)).toEqual([expect.stringContaining(selectorAdvice)]);
    await expectNoMetric("selector.like.fine");
  });

  it("is refused by POST /streams/:stream with the whole request", async () => {
    const response = await sendJson("POST", `/streams/${encodedStream("selector.like.stream")}`, [
      { resourceId: "vm1", metric: "selector.like.stream", value: 1 },
      { resourceId: "vm1", metric: "selector.like{stream}", value: 1 },
    ]);

    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { message: string }[] };
    expect(problem.errors.map(({ message }) => message)).toEqual([expect.stringContaining(selectorAdvice)]);
    await expectNoMetric("selector.like.stream");
  });

  it("is refused by an agent's route, the other lines accepted", async () => {
    const response = await request("POST", "/write", {
      body: "selector_like_ok,host=vm1 value=1\nselector_like_*,host=vm1 value=2\n",
      headers: { "content-type": "text/plain; charset=utf-8" },
    });

    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toBe(
      `partial write: line 2: "selector_like_*": ${selectorMessage}; the other lines' 1 data were accepted`,
    );
    expect((await request("GET", metricPath("selector_like_ok"))).status).toBe(200);
  });
});
