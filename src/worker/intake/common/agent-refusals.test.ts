import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { problemOnError } from "../../../shared/http/problem-handlers";
import { ApiError } from "../../../shared/problems";
import { readConfig } from "../../config";
import type { AppEnv } from "../../http/app-env";
import { agentRefusals } from "./agent-refusals";

/** An app whose middleware refuses every request with `error`, as authentication or the body limit would. */
function refusingWith(error: ApiError) {
  const app = new Hono<AppEnv>();
  app.onError(problemOnError("test"));
  app.use(async (c, next) => {
    c.set("config", readConfig({ MAX_BODY_BYTES: "1024", AUTH_DISABLED: "true" }));
    await next();
  });
  app.use(agentRefusals);
  app.use(() => {
    throw error;
  });
  app.all("*", (c) => c.body(null, 204));
  return app;
}

const unauthorized = new ApiError("unauthorized", "No token.", {
  headers: { "www-authenticate": 'Bearer realm="tower-edge"' },
});
const tooLarge = new ApiError("payload-too-large", "The body is larger than the limit of 1024 bytes.");

const post = (app: Hono<AppEnv>, path: string, contentType = "text/plain") =>
  app.request(path, { method: "POST", headers: { "content-type": contentType } });

describe("agentRefusals", () => {
  it("answers the InfluxDB 1.x API's refusals as {error} with X-Influxdb-Error", async () => {
    for (const path of ["/write", "/v1/write", "/write/", "/query"]) {
      const response = await post(refusingWith(unauthorized), path);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="tower-edge"');
      expect(response.headers.get("x-influxdb-error")).toBe("No token.");
      expect(await response.json()).toEqual({ error: "No token." });
    }
  });

  it("answers the InfluxDB 2.x API's refusals as {code, message}", async () => {
    const response = await post(refusingWith(unauthorized), "/api/v2/write");
    expect(await response.json()).toEqual({ code: "unauthorized", message: "No token." });
  });

  it("answers remote write's refusals as plain text", async () => {
    const response = await post(refusingWith(unauthorized), "/api/v1/write", "application/x-protobuf");
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("No token.\n");
  });

  it("answers OTLP's refusals as a google.rpc.Status in the request's encoding", async () => {
    const json = await post(refusingWith(unauthorized), "/otlp/v1/metrics", "application/json");
    expect(await json.json()).toEqual({ code: 16, message: "No token." });
    const protobuf = await post(refusingWith(unauthorized), "/otlp/v1/metrics", "application/x-protobuf");
    expect(protobuf.headers.get("content-type")).toBe("application/x-protobuf");
  });

  it("tells a body over the limit the setting's name and the protocol's remedy", async () => {
    const influx = await post(refusingWith(tooLarge), "/api/v2/write");
    expect(influx.status).toBe(413);
    expect(await influx.json()).toEqual({
      code: "request too large",
      message:
        "The body is larger than MAX_BODY_BYTES (1024 bytes); compress it (Content-Encoding: gzip; Telegraf: " +
        'content_encoding = "gzip") or send smaller batches (Telegraf: metric_batch_size).',
    });
    const otlp = await post(refusingWith(tooLarge), "/otlp/v1/metrics", "application/json");
    expect(((await otlp.json()) as { message: string }).message).toContain("OTEL_EXPORTER_OTLP_COMPRESSION=gzip");
    const remoteWrite = await post(refusingWith(tooLarge), "/api/v1/write");
    expect(await remoteWrite.text()).toContain("MAX_BODY_BYTES (1024 bytes); send fewer samples at once");
  });

  it("leaves the refusals of other routes problems", async () => {
    const response = await post(refusingWith(unauthorized), "/monitoringdata");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});
