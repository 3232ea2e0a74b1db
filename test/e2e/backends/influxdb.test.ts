import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { influxAvailable, influxDatabase, influxUrl, uniqueRunId } from "../support/interop-servers.ts";
import { type Service, startService } from "../support/service.ts";
import { readUntil } from "../support/stored-series.ts";

/*
 * InfluxDB 1.6 as the backend: Debian's `influx` CLI imports line protocol into the service as it
 * would into InfluxDB, and an `INFLUXDB` observer that follows the measurement's metrics writes to
 * InfluxDB's /write, which must then hold the same points: measurement, tags, fields with their
 * types (float, integer, boolean) and times.
 */

const run = promisify(execFile);
const influxCli = "/usr/bin/influx";
const available = influxAvailable && existsSync(influxCli);
if (!available) {
  console.warn(
    "InfluxDB backend test skipped: needs influxd on 127.0.0.1:8086 (.ci/install-interop-servers.sh) and the influx " +
      "CLI (.ci/install-agent-clients.sh)",
  );
}

/** Unique per run: the database outlives the test, and earlier runs' points must not count. */
const measurement = `weather_${uniqueRunId()}`;
const firstTime = 1_700_000_000_123;
const secondTime = 1_700_000_001_456;
/** Tags with what line protocol escapes (space, comma, equals sign); float, integer and boolean fields (string fields are no data). */
const lines = [
  `${measurement},host=vm1,location=us-midwest temperature=82.5,humidity=43i,raining=true ${firstTime}`,
  `${measurement},host=vm1,location=us-midwest temperature=80,humidity=47i,raining=false ${secondTime}`,
  `${measurement},host=vm2,location=us\\ west\\,coast,zone=a\\=1 temperature=-3.75,humidity=-60i,raining=false ${firstTime}`,
  // A point with one of the three fields: the others stay absent.
  `${measurement},host=vm2,location=us\\ west\\,coast,zone=a\\=1 humidity=0i ${secondTime}`,
];
/** The points as InfluxDB answers `SELECT *` (columns sorted), without the columns a point lacks. */
const expectedPoints = [
  { time: firstTime, host: "vm1", location: "us-midwest", temperature: 82.5, humidity: 43, raining: true },
  {
    time: firstTime,
    host: "vm2",
    location: "us west,coast",
    zone: "a=1",
    temperature: -3.75,
    humidity: -60,
    raining: false,
  },
  { time: secondTime, host: "vm1", location: "us-midwest", temperature: 80, humidity: 47, raining: false },
  { time: secondTime, host: "vm2", location: "us west,coast", zone: "a=1", humidity: 0 },
];

interface QueryAnswer {
  results: { series?: { columns: string[]; values: unknown[][] }[]; error?: string }[];
}

async function influxQuery(query: string): Promise<Record<string, unknown>[]> {
  const parameters = new URLSearchParams({ db: influxDatabase, epoch: "ms", q: query });
  const answer = (await (await fetch(`${influxUrl}/query?${parameters}`)).json()) as QueryAnswer;
  const [result] = answer.results;
  if (result?.error) throw new Error(`InfluxDB answered ${query}: ${result.error}`);
  const { columns = [], values = [] } = result?.series?.[0] ?? {};
  return values.map((row) =>
    Object.fromEntries(columns.flatMap((column, index) => (row[index] === null ? [] : [[column, row[index]]]))),
  );
}

let service: Service;
let observerId: string;

beforeAll(async () => {
  if (!available) return;
  service = await startService();
  const registered = await service.call("POST", "/observers", {
    match: [`{__name__=~"${measurement}[.].+"}`],
    format: "INFLUXDB",
    callbackUrl: `${influxUrl}/write?db=${influxDatabase}`,
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  observerId = registered.body.id;
});

afterAll(async () => {
  await service?.stop();
});

describe.skipIf(!available)("influx CLI → service → InfluxDB 1.6", () => {
  it("InfluxDB holds the points the CLI wrote: measurement, tags, typed fields and times", async () => {
    // The CLI's import: one file, its lines written in one request, as a restore or a backfill does.
    const directory = await mkdtemp(join(tmpdir(), "tower-influx-import-"));
    try {
      const importFile = join(directory, "points.txt");
      await writeFile(importFile, ["# DML", `# CONTEXT-DATABASE: ${influxDatabase}`, ...lines, ""].join("\n"));
      const { port } = new URL(service.url);
      await run(influxCli, ["-host", "127.0.0.1", "-port", port, "-precision", "ms", "-import", "-path", importFile]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }

    const points = await readUntil(
      () => influxQuery(`SELECT * FROM "${measurement}"`),
      (rows) => rows.length >= expectedPoints.length,
      25_000,
    );
    const observer = await service.call("GET", `/observers/${observerId}`);
    expect(points, `the observer: ${JSON.stringify(observer.body)}`).toEqual(expectedPoints);
    expect(await influxQuery(`SHOW FIELD KEYS FROM "${measurement}"`)).toEqual([
      { fieldKey: "humidity", fieldType: "integer" },
      { fieldKey: "raining", fieldType: "boolean" },
      { fieldKey: "temperature", fieldType: "float" },
    ]);
    expect(await influxQuery(`SHOW TAG KEYS FROM "${measurement}"`)).toEqual([
      { tagKey: "host" },
      { tagKey: "location" },
      { tagKey: "zone" },
    ]);
  });
});
