import { describe, expect, it } from "vitest";
import { prefixes, request } from "../support/http";
import { recentData, waitForData } from "../support/recent-data";

const write = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
  request("POST", path, { body, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("POST /write and /api/v2/write", () => {
  it.each(prefixes.flatMap((prefix) => [`${prefix}/write`, `${prefix}/api/v2/write`]))(
    "accepts line protocol at %s with exactly 204 and no body",
    async (path) => {
      const metric = `lp${path.replaceAll("/", "_")}`;
      const response = await write(
        `${path}?db=telegraf&precision=ms`,
        `${metric},host=vm1,cpu=cpu0 usage=90 1700000000123\n`,
      );
      expect({ status: response.status, body: await response.text() }).toEqual({ status: 204, body: "" });
      expect(await waitForData(`${metric}.usage`, 1)).toMatchObject([
        { resourceId: "vm1,cpu=cpu0", value: 90, timestamp: 1700000000123 },
      ]);
    },
  );

  it("reads gzip bodies", async () => {
    const response = await write("/write", await gzip("gz_cpu,host=vm9 value=0.5 1700000000000000000"), {
      "content-encoding": "gzip",
    });
    expect(response.status).toBe(204);
    expect(await waitForData("gz_cpu", 1)).toMatchObject([{ resourceId: "vm9", value: 0.5, timestamp: 1700000000000 }]);
  });

  it("accepts the valid lines of a partly bad body and names the bad ones in InfluxDB's shape", async () => {
    const body = [
      "partial,host=a value=1 1700000000000000000",
      "partial,host=b value=",
      "partial,host=c value=3 1700000000000000000",
    ].join("\n");
    const v1 = await write("/write", body);
    expect(v1.status).toBe(400);
    const v1Body = (await v1.json()) as { error: string };
    expect(v1Body.error).toMatch(/^partial write: line 2: /);
    const v2 = await write("/api/v2/write", body);
    expect(v2.status).toBe(400);
    expect(await v2.json()).toMatchObject({
      code: "invalid",
      message: expect.stringMatching(/^partial write: line 2: /),
    });
    const kept = await waitForData("partial", 4);
    expect(kept.map((datum) => datum.resourceId).sort()).toEqual(["a", "a", "c", "c"]);
  });

  it("refuses an unknown precision, nothing accepted", async () => {
    const response = await write("/write?precision=fortnight", "never value=1");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.stringContaining('precision "fortnight"') });
    expect((await recentData("never")).status).toBe(404);
  });
});

describe("InfluxDB clients' handshake", () => {
  it("answers /ping with 204 and a version", async () => {
    for (const method of ["GET", "HEAD"]) {
      const response = await request(method, "/ping");
      expect(response.status).toBe(204);
      expect(response.headers.get("x-influxdb-version")).toMatch(/^1\./);
    }
  });

  it("answers CREATE DATABASE and SHOW DATABASES, and refuses other queries", async () => {
    const created = await request("POST", `/query?q=${encodeURIComponent('CREATE DATABASE "telegraf"')}`);
    expect(await created.json()).toEqual({ results: [{ statement_id: 0 }] });
    const form = await request("POST", "/query", {
      body: "q=SHOW+DATABASES",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(200);
    const other = await request("POST", `/query?q=${encodeURIComponent("SELECT * FROM cpu")}`);
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ error: expect.stringContaining("stores no series") });
  });
});
