import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rdfJsonRequests, sendRequests } from "./intake-requests.ts";

interface Received {
  method: string | undefined;
  url: string;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  body: Buffer;
}

const received: Received[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    received.push({
      method: request.method,
      url: request.url ?? "",
      contentType: request.headers["content-type"],
      contentEncoding: request.headers["content-encoding"],
      body: Buffer.concat(chunks),
    });
    response.writeHead(request.url?.startsWith("/refuse") ? 400 : 204).end();
  });
});
let baseUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  baseUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("intake requests", () => {
  it("RDF/JSON: distinct bodies of the size asked for, to /monitoringdata", () => {
    const requests = rdfJsonRequests(3, 5, "m");
    expect(requests).toMatchObject({ path: "/monitoringdata", expectedStatus: 204, dataPerRequest: 5 });
    expect(new Set(requests.bodies).size).toBe(3);
  });

  it("posts binary bodies with their headers, cycling through them, and counts other answers as errors", async () => {
    received.length = 0;
    const bodies = [gzipSync("a b=1"), gzipSync("a b=2")];
    const requests = {
      path: "/write?db=x",
      bodies,
      contentType: "text/plain",
      headers: { "content-encoding": "gzip" },
      expectedStatus: 204,
      dataPerRequest: 1,
    };
    const load = await sendRequests(baseUrl, requests, { concurrency: 1, seconds: 10, requests: 3 });
    expect(load).toMatchObject({ requests: 3, errors: 0 });
    expect(received.map(({ url, contentType, contentEncoding }) => [url, contentType, contentEncoding])).toEqual(
      Array(3).fill(["/write?db=x", "text/plain", "gzip"]),
    );
    expect(received.map(({ body }) => body)).toEqual([bodies[0], bodies[1], bodies[0]]);
    const refused = await sendRequests(
      baseUrl,
      { ...requests, path: "/refuse" },
      { concurrency: 2, seconds: 10, requests: 4 },
    );
    expect(refused).toMatchObject({ requests: 4, errors: 4 });
  });

  it("sends GETs without a body when the requests say GET", async () => {
    received.length = 0;
    const requests = {
      method: "GET" as const,
      path: "/healthz",
      bodies: [],
      contentType: "application/json",
      expectedStatus: 204,
      dataPerRequest: 0,
    };
    const load = await sendRequests(baseUrl, requests, { concurrency: 1, seconds: 10, requests: 2 });
    expect(load).toMatchObject({ requests: 2, errors: 0 });
    expect(received.map(({ method, url, body }) => [method, url, body.length])).toEqual([
      ["GET", "/healthz", 0],
      ["GET", "/healthz", 0],
    ]);
  });
});
