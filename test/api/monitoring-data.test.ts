import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type ApiRoutes, createApp } from "../../src/worker/app";
import { apiClient } from "../../tools/testing/api-client";
import { monitoringNamespace, rdfJsonBody, rdfJsonSubject } from "../../tools/testing/monitoring-data";
import { checkedFetch } from "./support/checked-fetch";
import { api, clientAt, idParam } from "./support/client";
import { expectProblem, prefixes, request, sendJson, validationProblem } from "./support/http";

const datum = (id: string, metric: string) => ({
  id,
  metric,
  timestamp: 1409223851698,
  value: "0.5e0",
  resourceId: "vm1",
});
const intakePaths = prefixes.flatMap((prefix) => [`${prefix}/monitoringdata`, `${prefix}/results`]);

async function metricExists(name: string): Promise<boolean> {
  const response = await api.metrics[":id"].$get({ param: idParam(name) });
  await response.body?.cancel();
  return response.status === 200;
}

describe("POST /monitoringdata", () => {
  it.each(intakePaths)("accepts data at %s with 204 and registers their metrics", async (path) => {
    const metric = `intake${path.replaceAll("/", "-")}`;
    const response = await sendJson("POST", path, rdfJsonBody([datum("d1", metric), datum("d2", `${metric}-b`)]));
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 204, body: "" });
    expect(await metricExists(metric)).toBe(true);
    expect(await metricExists(`${metric}-b`)).toBe(true);
  });

  it.each(prefixes)("takes data from the typed client under %o", async (prefix) => {
    const metric = `typed-client${prefix.replace("/", "-")}`;
    const client = clientAt(prefix);
    const response = await client.monitoringdata.$post({ json: rdfJsonBody([datum("d1", metric)]) });
    expect(response.status).toBe(204);
    expect((await client.results.$post({ json: rdfJsonBody([datum("d2", metric)]) })).status).toBe(204);
    expect(await metricExists(metric)).toBe(true);
  });

  it("reads a body without content type as JSON", async () => {
    // Bytes, not a string: a string body would get a text/plain content type from the Request.
    const response = await request("POST", "/monitoringdata", {
      body: new TextEncoder().encode(JSON.stringify(rdfJsonBody([datum("d1", "untyped-body")]))),
    });
    expect(response.status).toBe(204);
  });

  it("rejects a bad datum with a problem naming it, accepts nothing of the request", async () => {
    const body = {
      ...rdfJsonBody([datum("good", "rejected-good")]),
      bad: { ...rdfJsonSubject({ ...datum("bad", "rejected-bad"), value: "1,5" }) },
    };
    await expectProblem(
      await sendJson("POST", "/monitoringdata", body),
      400,
      validationProblem("The monitoring data are not valid; nothing was accepted.", [
        {
          path: `/bad/${monitoringNamespace.replaceAll("/", "~1")}value/0/value`,
          message: "The value is not an xsd:double lexical form.",
        },
      ]),
    );
    expect(await metricExists("rejected-good")).toBe(false);
    expect(await metricExists("rejected-bad")).toBe(false);
  });

  it("says that property names are full IRIs to a datum that names them bare", async () => {
    const answer = await sendJson("POST", "/monitoringdata", {
      d1: { metric: "cpu", value: 0.5, timestamp: 1409223851698, resourceId: "vm1" },
    });
    expect(answer.status).toBe(400);
    const { errors } = (await answer.json()) as { errors: { path: string; message: string }[] };
    expect(errors.map((error) => error.path)).toEqual(["/d1", "/d1", "/d1", "/d1"]);
    expect(errors[0]!.message).toBe(
      'Missing property metric: property names are full IRIs, and "metric" is not one this service reads; ' +
        `write "${monitoringNamespace}metric":[{"type":"literal","value":"cpu"}].`,
    );
  });

  it("answers 400 for malformed JSON, 415 for another content type, 413 above the body limit", async () => {
    const malformed = await request("POST", "/monitoringdata", {
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ type: "urn:tower-edge:problem:malformed-json" });

    const text = await request("POST", "/monitoringdata", { body: "x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ type: "urn:tower-edge:problem:unsupported-media-type" });

    const huge = await sendJson("POST", "/monitoringdata", { d: "x".repeat(1_048_577) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ type: "urn:tower-edge:problem:payload-too-large" });
  });

  describe("bodies nested more than 64 levels deep", () => {
    /** `levels` arrays, one inside the other. */
    const nested = (levels: number): unknown => (levels === 0 ? "deep" : [nested(levels - 1)]);
    const tooDeep = {
      type: "urn:tower-edge:problem:malformed-json",
      title: "Malformed JSON",
      status: 400,
      detail: "The body is nested more than 64 levels deep.",
    };
    /** One datum whose subject also holds `extra` under a predicate the intake ignores. */
    const withIgnoredPredicate = (metric: string, extra: unknown) => {
      const body = rdfJsonBody([datum("d1", metric)]);
      return { d1: { ...body.d1, "http://www.w3.org/1999/02/22-rdf-syntax-ns#type": extra } };
    };

    it("refuses one in a predicate it ignores, and accepts nothing", async () => {
      // Body, subject and 63 arrays: 65 levels.
      const response = await sendJson("POST", "/monitoringdata", withIgnoredPredicate("too-deep-ignored", nested(63)));
      await expectProblem(response, 400, tooDeep);
      expect(await metricExists("too-deep-ignored")).toBe(false);
    });

    it("accepts one of exactly 64 levels", async () => {
      const response = await sendJson("POST", "/monitoringdata", withIgnoredPredicate("deep-ignored", nested(62)));
      expect(response.status).toBe(204);
    });

    it("refuses one in a literal as too deep, not as a wrong lexical form", async () => {
      const body = rdfJsonBody([datum("d1", "too-deep-literal")]);
      const predicate = `${monitoringNamespace}value`;
      const subject = body.d1 as Record<string, unknown>;
      const response = await sendJson("POST", "/monitoringdata", {
        d1: { ...subject, [predicate]: [{ type: "literal", value: nested(100) }] },
      });
      await expectProblem(response, 400, tooDeep);
      expect(await metricExists("too-deep-literal")).toBe(false);
    });
  });

  it("answers 400 for a body that is not UTF-8, instead of accepting replaced characters", async () => {
    const text = JSON.stringify(rdfJsonBody([datum("d1", "latin1-XX")]));
    const bytes = new TextEncoder().encode(text);
    // The two X become bytes that are not UTF-8 (the text is ASCII: character and byte offsets agree).
    bytes.set([0xe9, 0xff], text.indexOf("latin1-XX") + "latin1-".length);
    const response = await request("POST", "/monitoringdata", {
      body: bytes,
      headers: { "content-type": "application/json" },
    });
    await expectProblem(response, 400, {
      type: "urn:tower-edge:problem:malformed-json",
      title: "Malformed JSON",
      status: 400,
      detail: "The body is not valid UTF-8.",
    });
    expect(await metricExists("latin1-\ufffd\ufffd")).toBe(false);
  });

  it("answers 503 and accepts nothing when the queue cannot be reached", async () => {
    const down = () => Promise.reject(new Error("queue down"));
    const unreachable = { send: down, sendBatch: down, metrics: down } satisfies Queue;
    const app = createApp();
    const withoutQueue = checkedFetch(async (request) =>
      app.fetch(request, { ...env, INTAKE_QUEUE: unreachable }, createExecutionContext()),
    );
    const response = await apiClient<ApiRoutes>("http://service", withoutQueue).monitoringdata.$post({
      json: rdfJsonBody([datum("d1", "queue-down")]),
    });
    await expectProblem(response, 503, {
      type: "urn:tower-edge:problem:unavailable",
      title: "Service unavailable",
      status: 503,
      detail: "The intake queue could not be reached; resend the request.",
    });
  });
});
