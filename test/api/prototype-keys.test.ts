import { describe, expect, it } from "vitest";
import { monitoringNamespace, rdfJsonSubject } from "../../tools/testing/monitoring-data";
import { request } from "./support/http";
import { declareMetric, listObservers, observersPath } from "./support/metrics";
import { readModel } from "./support/resources";

/*
 * JSON.parse makes "__proto__" an ordinary own key, but copying such an object by assignment sets
 * the copy's prototype instead, and the key vanishes. Each write route must still see it as the
 * unknown field it is, and treat prototype names used as ids or names as plain data.
 */

function send(method: string, path: string, text: string): Promise<Response> {
  return request(method, path, { body: text, headers: { "content-type": "application/json" } });
}

async function unknownFieldPaths(response: Response): Promise<string[]> {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const problem = await response.json<{ errors: { path: string }[] }>();
  return problem.errors.map((error) => error.path);
}

const prototypeKeys = ["__proto__", "constructor", "toString"];

describe.each(prototypeKeys)("the key %s", (key) => {
  it("is an unknown field of a model, at the top and in an element, and nothing is stored", async () => {
    const before = await readModel();
    const grouped = `{"cloudProviders":[{"id":"p","type":"t"}],"${key}":{"vMs":[]}}`;
    expect(await unknownFieldPaths(await send("PUT", "/resources", grouped))).toContain(`/${key}`);
    const element = `[{"clazz":"CloudProvider","id":"p","type":"t","${key}":{"type":"x"}}]`;
    expect(await unknownFieldPaths(await send("POST", "/resources", element))).toContain(`/0/${key}`);
    expect(await readModel()).toEqual(before);
  });

  it("is an unknown field of an observer registration, and no observer is added", async () => {
    const metric = `proto-${key}`;
    await declareMetric(metric);
    const body = `{"callbackUrl":"https://receiver.example/","${key}":{"secret":"0123456789abcdef"}}`;
    expect(await unknownFieldPaths(await send("POST", observersPath(metric), body))).toEqual([`/${key}`]);
    expect(await listObservers(metric)).toEqual([]);
  });

  it("is an unknown field of a literal, and the datum's metric is not registered", async () => {
    const subject = rdfJsonSubject({ metric: `unseen-${key}`, timestamp: 1, value: 1, resourceId: "r" });
    const text = JSON.stringify({ d1: subject }).replace('"type":"literal"', `"${key}":{},"type":"literal"`);
    const paths = await unknownFieldPaths(await send("POST", "/monitoringdata", text));
    expect(paths).toEqual([`/d1/${monitoringNamespace.replaceAll("/", "~1")}metric/0/${key}`]);
    expect(await (await request("GET", "/metrics")).json()).not.toContain(`unseen-${key}`);
  });

  it("is plain data as a resource id, a datum id, a resourceId and a metric name", async () => {
    const model = `[{"clazz":"CloudProvider","id":"${key}","type":"t"}]`;
    expect((await send("POST", "/resources", model)).status).toBe(204);
    const stored = await request("GET", `/resources/${key}`);
    expect(await stored.json()).toEqual({ clazz: "CloudProvider", id: key, type: "t" });

    const subject = rdfJsonSubject({ metric: `metric-${key}`, timestamp: 1, value: 1, resourceId: key });
    const data = `{"${key}":${JSON.stringify(subject)}}`;
    expect((await send("POST", "/monitoringdata", data)).status).toBe(204);
    expect(await (await request("GET", "/metrics")).json()).toContain(`metric-${key}`);

    expect((await request("PUT", `/metrics/${key}`)).status).toBe(201);
    expect(await (await request("GET", `/metrics/${key}`)).json()).toMatchObject({ id: key, observers: 0 });
  });
});
