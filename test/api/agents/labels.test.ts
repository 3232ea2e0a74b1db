import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import SnappyJS from "snappyjs";
import { describe, expect, it } from "vitest";
import { encodeRequest } from "../../../src/worker/intake/otlp/testing/otlp-protobuf-encoder";
import { encodeWriteRequest } from "../../../src/worker/intake/remote-write/testing/write-request-encoder";
import { BacklogStore } from "../../../src/worker/metrics/backlog-store";
import type { DatumRow } from "../../../src/worker/vocabulary/datum";
import { rowsJson } from "../../../src/worker/vocabulary/row-json";
import { rdfJsonBody } from "../../../tools/testing/monitoring-data";
import { agentDataMs } from "../support/agent-routes";
import { request, sendJson } from "../support/http";
import { addObserver, declareMetric, observersPath } from "../support/metrics";
import { recentData } from "../support/recent-data";

/*
 * An agent's labels travel with its data from intake through the queue and the consumer to an
 * observer's backlog: each metric here has a paused observer, whose data the consumer writes to its
 * backlog as the rows it delivers, read back from the metric's object.
 */

/** A paused TOWER/JSON observer of a new metric; its id. */
async function pausedObserver(metric: string): Promise<string> {
  await declareMetric(metric);
  const { id } = await addObserver(metric, { format: "TOWER/JSON", callbackUrl: "http://receiver.example/labels" });
  const paused = await sendJson("PATCH", `${observersPath(metric)}/${id}`, { state: "paused" });
  expect(paused.status).toBe(200);
  return String(id);
}

/** The rows the observer's backlog holds for it once the consumer has written `count` of them. */
async function heldRows(metric: string, observerId: string, count: number): Promise<DatumRow[]> {
  for (let tries = 0; tries < 100; tries++) {
    const head = await runInDurableObject(env.METRIC.getByName(metric), (_, state) =>
      new BacklogStore(state.storage.sql, rowsJson).head(observerId),
    );
    if (head !== undefined && head.rows.length >= count) return head.rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${metric}: fewer than ${count} rows held after 10 s`);
}

describe("an agent's labels", () => {
  it("come with line protocol's data: the tags but the dropped ones, the measurement, field key and type of each point", async () => {
    const [usage, up] = await Promise.all([pausedObserver("lbl_lp.usage"), pausedObserver("lbl_lp.up")]);
    const body = [
      `lbl_lp,host=vm1,cpu=cpu0,zone=z1 usage=90i,idle=1.5,up=t ${agentDataMs}000000`,
      `lbl_lp,host=vm1,cpu=cpu1,zone=z1 usage=7i,up=false ${agentDataMs}000000`,
    ].join("\n");
    const response = await request("POST", "/write?drop=zone", { body, headers: { "content-type": "text/plain" } });
    expect(response.status).toBe(204);
    const tags = (cpu: string) => [
      ["cpu", cpu],
      ["host", "vm1"],
    ];
    expect(await heldRows("lbl_lp.usage", usage, 2)).toEqual([
      [
        expect.any(String),
        agentDataMs,
        90,
        "vm1,cpu=cpu0",
        { pairs: tags("cpu0"), line: ["lbl_lp", "usage", "integer"] },
      ],
      [
        expect.any(String),
        agentDataMs,
        7,
        "vm1,cpu=cpu1",
        { pairs: tags("cpu1"), line: ["lbl_lp", "usage", "integer"] },
      ],
    ]);
    expect((await heldRows("lbl_lp.up", up, 2)).map((row) => [row[2], row[4]])).toEqual([
      [1, { pairs: tags("cpu0"), line: ["lbl_lp", "up", "boolean"] }],
      [0, { pairs: tags("cpu1"), line: ["lbl_lp", "up", "boolean"] }],
    ]);
    // The recent data show data as before, without labels.
    expect(Object.keys(((await (await recentData("lbl_lp.usage")).json()) as object[])[0]!).sort()).toEqual([
      "id",
      "resourceId",
      "timestamp",
      "value",
    ]);
  });

  it("come with remote write's data: the labels but __name__", async () => {
    const observerId = await pausedObserver("lbl_rw_up");
    const labels = { job: "node", instance: "vm1:9100", zone: "a b" };
    const body = encodeWriteRequest([
      { labels: { __name__: "lbl_rw_up", ...labels }, samples: [{ value: 1, timestamp: agentDataMs }] },
      { labels: { __name__: "lbl_rw_other", ...labels }, samples: [{ value: 2, timestamp: agentDataMs }] },
    ]);
    const response = await request("POST", "/api/v1/write", {
      body: SnappyJS.compress(body),
      headers: { "content-type": "application/x-protobuf", "content-encoding": "snappy" },
    });
    expect(response.status).toBe(204);
    expect(await heldRows("lbl_rw_up", observerId, 1)).toEqual([
      [
        expect.any(String),
        agentDataMs,
        1,
        "vm1:9100,job=node,zone=a\\ b",
        {
          pairs: [
            ["instance", "vm1:9100"],
            ["job", "node"],
            ["zone", "a b"],
          ],
        },
      ],
    ]);
  });

  it("come with OTLP's data: the point's attributes, and the resource attribute that is primary, marked", async () => {
    const observerId = await pausedObserver("lbl.otlp.depth");
    const body = encodeRequest({
      resourceMetrics: [
        {
          resource: {
            attributes: [
              { key: "service.name", value: { stringValue: "api" } },
              { key: "host.name", value: { stringValue: "vm1" } },
            ],
          },
          scopeMetrics: [
            {
              metrics: [
                {
                  name: "lbl.otlp.depth",
                  gauge: {
                    dataPoints: [
                      {
                        timeUnixNano: `${agentDataMs}000000`,
                        asInt: "7",
                        attributes: [{ key: "queue", value: { stringValue: "in" } }],
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      ],
    });
    const response = await request("POST", "/otlp/v1/metrics", {
      body,
      headers: { "content-type": "application/x-protobuf" },
    });
    expect(response.status).toBe(200);
    expect(await heldRows("lbl.otlp.depth", observerId, 1)).toEqual([
      [
        expect.any(String),
        agentDataMs,
        7,
        "vm1,queue=in",
        {
          pairs: [
            ["host.name", "vm1"],
            ["queue", "in"],
          ],
          resourceAttribute: "host.name",
        },
      ],
    ]);
  });

  it("are none for RDF/JSON's data", async () => {
    const observerId = await pausedObserver("lbl.rdf");
    const response = await sendJson(
      "POST",
      "/monitoringdata",
      rdfJsonBody([
        { id: "urn:datum:lbl-rdf", metric: "lbl.rdf", timestamp: agentDataMs, value: 3, resourceId: "vm1" },
      ]),
    );
    expect(response.status).toBe(204);
    expect(await heldRows("lbl.rdf", observerId, 1)).toEqual([["urn:datum:lbl-rdf", agentDataMs, 3, "vm1"]]);
  });
});
