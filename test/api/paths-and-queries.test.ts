import { describe, expect, it } from "vitest";
import { expectProblem, prefixes, request, validationProblem } from "./support/http";
import { declareMetric } from "./support/metrics";

const detail = "The query names parameters this route does not take.";

describe.each(prefixes)("query parameters under %o", (prefix) => {
  const metric = `queried-${prefix ? "v1" : "root"}`;

  it("refuses a misspelt one with the name probably meant, as an unknown body field is refused", async () => {
    await declareMetric(metric);
    await expectProblem(
      await request("GET", `${prefix}/metrics/${metric}/data?limt=5`),
      400,
      validationProblem(detail, [{ path: "/limt", message: 'Unknown query parameter; did you mean "limit"?' }]),
    );
    expect((await request("GET", `${prefix}/metrics/${metric}/data?limit=5`)).status).toBe(200);
  });

  it("refuses any on a route that takes none", async () => {
    await expectProblem(
      await request("GET", `${prefix}/metrics?sort=name`),
      400,
      validationProblem(detail, [{ path: "/sort", message: "Unknown query parameter; this route takes none." }]),
    );
  });

  it("leaves the agents' routes every parameter their clients send", async () => {
    const influx = "db=telegraf&rp=autogen&u=telegraf&p=secret&precision=ms&consistency=one";
    const write = await request("POST", `${prefix}/write?${influx}`, {
      body: "queried,host=vm1 value=1 1700000000000",
    });
    expect(write.status).toBe(204);
    expect((await request("GET", `${prefix}/ping?verbose=true&wait_for_leader=30s`)).status).toBe(204);
    const v2 = await request("POST", `${prefix}/api/v2/write?org=any&bucket=any&precision=ms`, {
      body: "queried,host=vm1 value=2 1700000000000",
    });
    expect(v2.status).toBe(204);
  });
});

describe.each(prefixes)("a trailing slash under %o", (prefix) => {
  it("is served as the path without it", async () => {
    const metric = `slashed-${prefix ? "v1" : "root"}`;
    expect((await request("PUT", `${prefix}/metrics/${metric}/`)).status).toBe(201);
    expect(await (await request("GET", `${prefix}/metrics/`)).json()).toContain(metric);
    expect(await (await request("GET", `${prefix}/metrics/${metric}/`)).json()).toMatchObject({ id: metric });
    expect((await request("GET", `${prefix}/healthz/`)).status).toBe(200);
    expect(
      (await request("GET", `${prefix}/monitoring-rules/`, { headers: { accept: "application/json" } })).status,
    ).toBe(200);
  });
});
