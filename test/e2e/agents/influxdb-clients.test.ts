import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { InfluxDB, Point } from "@influxdata/influxdb-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type Service, startService } from "../support/service.ts";
import { observeInTowerJson, type TowerObserver } from "../support/tower-observer.ts";

/*
 * InfluxDB's own clients write to the service as they would to InfluxDB: the 2.x JavaScript
 * client (gzip, Token credentials) to /api/v2/write, and for the 1.x API Debian's `influx` CLI
 * (Basic credentials) and the Python client (`u`/`p` parameters, CREATE DATABASE first).
 */

const run = promisify(execFile);
const influxCli = "/usr/bin/influx";
const debianPython = "/usr/bin/python3";
const hasCli = existsSync(influxCli);
const hasPythonClient =
  existsSync(debianPython) &&
  (await run(debianPython, ["-c", "import influxdb"]).then(
    () => true,
    () => false,
  ));
if (!hasCli || !hasPythonClient) {
  console.warn(
    "InfluxDB 1.x client tests skipped where absent: Debian's influxdb-client (the influx CLI) and python3-influxdb " +
      "(.ci/run installs both).",
  );
}

let service: Service;
const observers = new Map<string, TowerObserver>();
const metrics = ["js.cpu.usage_idle", "js.cpu.processes", "cli_load", "python_disk.used_percent"];

beforeAll(async () => {
  service = await startService({ AUTH_DISABLED: "false", ADMIN_TOKEN: "admin-e2e", INGEST_TOKEN: "ingest-e2e" });
  for (const metric of metrics) observers.set(metric, await observeInTowerJson(service, metric));
});

afterAll(async () => {
  await Promise.all([...observers.values()].map((observer) => observer.receiver.close()));
  await service?.stop();
});

const arrived = (metric: string) =>
  eventually(() => observers.get(metric)!.data().length > 0 && observers.get(metric)!.data(), 30_000, {
    what: `data of ${metric} at the observer`,
  });

describe("InfluxDB clients", () => {
  it("the 2.x JavaScript client writes gzipped points with its token", async () => {
    const writer = new InfluxDB({ url: service.url, token: "ingest-e2e" }).getWriteApi("my-org", "my-bucket", "ns", {
      gzipThreshold: 0,
      maxRetries: 0,
    });
    writer.writePoint(
      new Point("js.cpu")
        .tag("host", "vm1")
        .tag("cpu", "cpu0")
        .floatField("usage_idle", 90.5)
        .intField("processes", 412)
        .stringField("state", "running")
        .timestamp("1700000000123456789"),
    );
    await writer.close();
    expect(await arrived("js.cpu.usage_idle")).toEqual([
      { metric: "js.cpu.usage_idle", resourceId: "vm1,cpu=cpu0", value: 90.5, timestamp: 1700000000123 },
    ]);
    expect(await arrived("js.cpu.processes")).toEqual([
      { metric: "js.cpu.processes", resourceId: "vm1,cpu=cpu0", value: 412, timestamp: 1700000000123 },
    ]);
  });

  it.skipIf(!hasCli)("Debian's influx CLI (1.x) inserts with Basic credentials", async () => {
    const { port } = new URL(service.url);
    await run(influxCli, [
      "-host",
      "127.0.0.1",
      "-port",
      port,
      "-username",
      "telegraf",
      "-password",
      "ingest-e2e",
      "-database",
      "telegraf",
      "-precision",
      "ms",
      "-execute",
      "INSERT cli_load,host=vm2 value=0.75 1700000000999",
    ]);
    expect(await arrived("cli_load")).toEqual([
      { metric: "cli_load", resourceId: "vm2", value: 0.75, timestamp: 1700000000999 },
    ]);
  });

  it.skipIf(!hasPythonClient)("the Python client (1.x) creates its database and writes with u and p", async () => {
    const { port } = new URL(service.url);
    const script = [
      "import sys",
      "from influxdb import InfluxDBClient",
      "client = InfluxDBClient('127.0.0.1', int(sys.argv[1]), 'telegraf', 'ingest-e2e', 'metrics')",
      "client.create_database('metrics')",
      "points = [{'measurement': 'python_disk', 'tags': {'host': 'vm3', 'path': '/'}, 'time': 1700000001000,",
      "           'fields': {'used_percent': 41.5, 'mode': 'rw'}}]",
      "assert client.write_points(points, time_precision='ms')",
    ].join("\n");
    await run(debianPython, ["-c", script, port]);
    expect(await arrived("python_disk.used_percent")).toEqual([
      { metric: "python_disk.used_percent", resourceId: "vm3,path=/", value: 41.5, timestamp: 1700000001000 },
    ]);
  });
});
