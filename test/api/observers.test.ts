import { describe, expect, it } from "vitest";
import { clientAt, idParam } from "./support/client";
import { expectProblem, prefixes, request, sendJson } from "./support/http";
import {
  addObserver,
  declareMetric,
  listObservers,
  metricPath,
  noDeliveriesYet,
  notFoundProblem,
  observersPath,
  plainHttp,
  unknownObserverProblem,
  uuid,
} from "./support/metrics";

const unknownMetric = (name: string) => notFoundProblem(`There is no metric ${JSON.stringify(name)}.`);

describe.each(prefixes)("observers under %o", (prefix) => {
  // Both prefixes share the file's storage, so each run uses names of its own.
  const name = (local: string) => `${local}-${prefix ? "v1" : "root"}`;
  const observers = clientAt(prefix).metrics[":id"].observers;
  const observerParam = (metric: string, oid: string) => ({ ...idParam(metric), oid });

  it("registers an HTTP observer with the defaults RDF/JSON and HTTP", async () => {
    const metric = name("defaults");
    await declareMetric(metric, prefix);
    const json = { callbackUrl: "https://receiver.example/hook" };
    const response = await observers.$post({ param: idParam(metric), json });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      id: uuid,
      format: "RDF/JSON",
      protocol: "HTTP",
      callbackUrl: "https://receiver.example/hook",
      state: "active",
    });
  });

  it("registers the TCP Graphite observer of the specification's example", async () => {
    const metric = name("FrontendCPUUtilization");
    await declareMetric(metric, prefix);
    const body = { format: "GRAPHITE", protocol: "TCP", observerHost: "127.0.0.1", observerPort: 2003 };
    const created = await addObserver(metric, body, prefix);
    expect(created).toEqual({ id: uuid, ...body, state: "active" });
    expect(await listObservers(metric, prefix)).toEqual([created]);
  });

  it.each([
    [
      { format: "graphite", protocol: "tcp" },
      { format: "GRAPHITE", protocol: "TCP" },
    ],
    [
      { format: "Tower/Json", protocol: "Udp" },
      { format: "TOWER/JSON", protocol: "UDP" },
    ],
    [
      { format: "influxDB", protocol: "udp" },
      { format: "INFLUXDB", protocol: "UDP" },
    ],
    [
      { format: "rdf/json", protocol: "tCp" },
      { format: "RDF/JSON", protocol: "TCP" },
    ],
  ])("matches format and protocol in any case and stores them canonically: %o", async (kinds, canonical) => {
    const metric = name(`case-${kinds.format}-${kinds.protocol}`.replaceAll("/", "_"));
    await declareMetric(metric, prefix);
    const created = await addObserver(metric, { ...kinds, observerHost: "relay.example", observerPort: 9000 }, prefix);
    expect(created).toEqual({
      id: uuid,
      ...canonical,
      observerHost: "relay.example",
      observerPort: 9000,
      state: "active",
    });
    const report = await observers[":oid"].$get({ param: observerParam(metric, created.id) });
    expect(await report.json()).toMatchObject(canonical);
  });

  it("never returns the secret", async () => {
    const metric = name("signed");
    await declareMetric(metric, prefix);
    const secret = "s3cr3t-s3cr3t-s3cr3t";
    const body = { callbackUrl: "http://signed.example/", secret };
    const response = await sendJson("POST", observersPath(metric, prefix), body);
    const created = await response.json<{ id: string }>();
    expect(created).toEqual({
      id: uuid,
      format: "RDF/JSON",
      protocol: "HTTP",
      callbackUrl: "http://signed.example/",
      state: "active",
    });

    const again = await sendJson("POST", observersPath(metric, prefix), body);
    const texts = [
      await again.text(),
      await (await request("GET", observersPath(metric, prefix))).text(),
      await (await request("GET", `${observersPath(metric, prefix)}/${created.id}`)).text(),
      await (await request("GET", metricPath(metric, prefix))).text(),
    ];
    for (const text of texts) expect(text).not.toContain(secret);
    expect(texts.join("")).not.toContain('"secret"');
  });

  it("returns the existing observer with 200 when the same target is registered again", async () => {
    const metric = name("idempotent");
    await declareMetric(metric, prefix);
    const body = { format: "INFLUXDB", protocol: "UDP", observerHost: "10.1.2.3", observerPort: 8089 };
    const created = await addObserver(metric, body, prefix);

    const again = await observers.$post({ param: idParam(metric), json: body });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(created);
    expect(await listObservers(metric, prefix)).toEqual([created]);
  });

  it.each([
    [
      "URL spelling",
      { callbackUrl: "HTTP://Receiver.EXAMPLE:80/a/../hook" },
      { callbackUrl: "http://receiver.example/hook" },
      { callbackUrl: "http://receiver.example/hook" },
    ],
    [
      "host name case",
      { protocol: "tcp", observerHost: "Relay.Example", observerPort: 2003 },
      { protocol: "TCP", observerHost: "relay.example", observerPort: 2003 },
      { protocol: "TCP", observerHost: "relay.example", observerPort: 2003 },
    ],
    [
      "IPv6 spelling and brackets",
      { protocol: "UDP", observerHost: "[0:0:0:0:0:0:0:1]", observerPort: 2003 },
      { protocol: "UDP", observerHost: "::1", observerPort: 2003 },
      { protocol: "UDP", observerHost: "::1", observerPort: 2003 },
    ],
    [
      "IPv4 shorthand",
      { protocol: "UDP", observerHost: "127.1", observerPort: 2003 },
      { protocol: "UDP", observerHost: "127.0.0.1", observerPort: 2003 },
      { protocol: "UDP", observerHost: "127.0.0.1", observerPort: 2003 },
    ],
  ])("treats another %s of the same address as the same target", async (what, first, second, stored) => {
    const metric = name(`spelling ${what}`);
    await declareMetric(metric, prefix);
    const created = await addObserver(metric, first, prefix);
    expect(created).toMatchObject(stored);
    const again = await sendJson("POST", observersPath(metric, prefix), second);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(created);
    expect(await listObservers(metric, prefix)).toEqual([created]);
  });

  it("keeps observers apart that differ in format, protocol, host or port", async () => {
    const metric = name("distinct");
    await declareMetric(metric, prefix);
    const bodies = [
      { protocol: "TCP", observerHost: "10.0.0.1", observerPort: 2003 },
      { protocol: "UDP", observerHost: "10.0.0.1", observerPort: 2003 },
      { protocol: "TCP", format: "GRAPHITE", observerHost: "10.0.0.1", observerPort: 2003 },
      { protocol: "TCP", observerHost: "10.0.0.2", observerPort: 2003 },
      { protocol: "TCP", observerHost: "10.0.0.1", observerPort: 2004 },
      { callbackUrl: "http://10.0.0.1:2003/" },
    ];
    const created = [];
    for (const body of bodies) created.push(await addObserver(metric, body, prefix));
    expect(new Set(created.map((observer) => observer.id)).size).toBe(bodies.length);
    expect(await listObservers(metric, prefix)).toEqual(created);
  });

  it("shows one observer with its delivery status", async () => {
    const metric = name("report");
    await declareMetric(metric, prefix);
    const created = await addObserver(metric, { format: "TOWER/JSON", callbackUrl: "http://report.example/" }, prefix);
    const response = await observers[":oid"].$get({ param: observerParam(metric, created.id) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ...created, ...plainHttp, status: noDeliveriesYet });
  });

  it("shows whether an HTTP observer signs and which headers it sends, never the secret or a header's value", async () => {
    const metric = name("dressed");
    await declareMetric(metric, prefix);
    const secret = "a-secret-of-the-observer-0123";
    const headers = { Authorization: "Token abc", "X-Scope": "team-a" };
    const created = await addObserver(metric, { callbackUrl: "http://dressed.example/", secret, headers }, prefix);
    const response = await observers[":oid"].$get({ param: observerParam(metric, created.id) });
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ signed: true, headerNames: ["Authorization", "X-Scope"] });
    for (const hidden of [secret, "Token abc", "team-a"]) expect(text).not.toContain(hidden);
  });

  it("removes an observer", async () => {
    const metric = name("removal");
    await declareMetric(metric, prefix);
    const kept = await addObserver(metric, { callbackUrl: "http://kept.example/" }, prefix);
    const removed = await addObserver(metric, { callbackUrl: "http://removed.example/" }, prefix);
    const param = observerParam(metric, removed.id);

    const response = await observers[":oid"].$delete({ param });
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 204, body: "" });
    expect(await listObservers(metric, prefix)).toEqual([kept]);
    await expectProblem(
      await observers[":oid"].$get({ param }),
      404,
      unknownObserverProblem(metric, String(removed.id)),
    );
    await expectProblem(
      await observers[":oid"].$delete({ param }),
      404,
      unknownObserverProblem(metric, String(removed.id)),
    );
  });

  it("answers 404 for an observer id that is unknown or belongs to another metric", async () => {
    const metric = name("owner");
    const other = name("other");
    await declareMetric(metric, prefix);
    await declareMetric(other, prefix);
    const { id } = await addObserver(metric, { callbackUrl: "http://owner.example/" }, prefix);

    for (const method of ["GET", "DELETE"]) {
      const onOtherMetric = await request(method, `${observersPath(other, prefix)}/${id}`);
      await expectProblem(onOtherMetric, 404, unknownObserverProblem(other, id));
      const unknownId = await request(method, `${observersPath(metric, prefix)}/nope`);
      await expectProblem(unknownId, 404, unknownObserverProblem(metric, "nope"));
    }
    expect(await listObservers(metric, prefix)).toEqual([expect.objectContaining({ id })]);
  });

  it("answers 404 on every observer route of an unknown metric, and creates nothing", async () => {
    const metric = name("undeclared");
    await expectProblem(
      await sendJson("POST", observersPath(metric, prefix), { callbackUrl: "http://x.example/" }),
      404,
      unknownMetric(metric),
    );
    await expectProblem(await request("GET", observersPath(metric, prefix)), 404, unknownMetric(metric));
    for (const method of ["GET", "DELETE"]) {
      const response = await request(method, `${observersPath(metric, prefix)}/x`);
      await expectProblem(response, 404, unknownObserverProblem(metric, "x"));
    }
    await expectProblem(await request("GET", metricPath(metric, prefix)), 404, unknownMetric(metric));
  });
});

describe("observer limit", () => {
  const onPort = (observerPort: number) => ({ protocol: "UDP", observerHost: "10.9.9.9", observerPort });
  const byPort = (observers: unknown) =>
    (observers as { observerPort: number }[]).toSorted((a, b) => a.observerPort - b.observerPort);

  it("answers 409 above MAX_OBSERVERS_PER_METRIC (100) observers; existing ones are still found", async () => {
    const metric = "crowded";
    await declareMetric(metric);
    const ports = Array.from({ length: 100 }, (_, index) => index + 1);
    const created = await Promise.all(ports.map((port) => addObserver(metric, onPort(port))));

    await expectProblem(await sendJson("POST", observersPath(metric), onPort(101)), 409, {
      type: "urn:tower-edge:problem:conflict",
      title: "Conflict",
      status: 409,
      detail: 'The metric "crowded" already has the maximum of 100 observers; remove one first.',
    });
    const existing = await sendJson("POST", observersPath(metric), onPort(7));
    expect(existing.status).toBe(200);
    expect(await existing.json()).toEqual(created[6]);
    expect(byPort(await listObservers(metric))).toEqual(created);

    await request("DELETE", `${observersPath(metric)}/${created[0]!.id}`);
    await addObserver(metric, onPort(101));
  }, 30_000); // a hundred registrations take a few seconds on a busy machine
});

describe("observer routes and methods", () => {
  it("answers 405 with Allow for a wrong method", async () => {
    const onCollection = await request("PUT", "/v1/metrics/cpu/observers");
    expect(onCollection.status).toBe(405);
    expect(onCollection.headers.get("allow")).toBe("GET, HEAD, POST");
    const onObserver = await request("POST", "/metrics/cpu/observers/some-id");
    expect(onObserver.status).toBe(405);
    expect(onObserver.headers.get("allow")).toBe("DELETE, GET, HEAD, PATCH");
  });
});
