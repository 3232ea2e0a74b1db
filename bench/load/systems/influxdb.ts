import { randomBytes } from "node:crypto";
import { ProcessGroup, processTable } from "../../runtime/process-accounting.ts";
import { keptAliveAgent, send } from "../http-client.ts";
import { formatLine } from "../line-protocol.ts";
import { type Protocol, receiverHost } from "../receivers/receivers.ts";
import { refusal, type SystemUnderTest } from "./system-under-test.ts";

/*
 * InfluxDB 1.x doing tower-edge's job: data are written to it (POST /write, line protocol) and
 * subscriptions copy them to the observers. As 1.6 does it, each write request is forwarded whole:
 * an HTTP destination gets one POST of its lines to `<url>/write?db=…&rp=…&precision=ns`, a UDP
 * destination one datagram per point (no trailing newline), several write requests at a time (the
 * [subscriber] write-concurrency, 40 by default). A write that finds a subscription's buffer full is
 * not copied to it (counted in the `subWriteDrop` statistic), so InfluxDB may lose data over HTTP too.
 *
 * Each observer gets a subscription of its own, as registering an observer is in tower-edge: one
 * subscription with several destinations (DESTINATIONS ALL) shares its round-robin index between
 * those concurrent writers, and so sends some writes twice to one destination and not at all to
 * another (in 1.6.7, 10 destinations: as many duplicates as lost data).
 */

const destinationSchemes: Partial<Record<Protocol, string>> = { HTTP: "http", UDP: "udp" };

/** InfluxDB as a system under test, and what the intake section compares with directly. */
export interface InfluxDbUnderTest extends SystemUnderTest {
  /** POST line protocol here to write to the run's database. */
  readonly writeUrl: string;
  /** The influxd process(es) of this machine when the URL is a loopback one (for their CPU time); none otherwise. */
  readonly processes: ProcessGroup;
}

const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** The influxd processes running here, when `url` points at this machine. */
function localInfluxd(url: string): ProcessGroup {
  const local = loopbackHosts.has(new URL(url).hostname);
  const processes = local ? processTable().filter((process) => process.comm === "influxd") : [];
  return new ProcessGroup(
    "influxd",
    processes.map(({ pid, comm }) => ({ pid, comm, cmdline: comm })),
  );
}

interface QueryAnswer {
  results?: { error?: string }[];
  error?: string;
}

async function detectVersion(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1_000) });
    return response.status === 204 ? (response.headers.get("x-influxdb-version") ?? "1.x") : undefined;
  } catch {
    return undefined;
  }
}

/**
 * InfluxDB at `url` with a database of its own for this run (dropped by close), or undefined when no
 * InfluxDB answers GET /ping there.
 */
export async function connectInfluxDb(url: string): Promise<InfluxDbUnderTest | undefined> {
  const version = await detectVersion(url);
  if (version === undefined) return undefined;
  const database = `tower_edge_bench_${randomBytes(6).toString("hex")}`;
  const retentionPolicy = `"${database}"."autogen"`;
  const query = async (statement: string) => {
    const response = await fetch(`${url}/query`, { method: "POST", body: new URLSearchParams({ q: statement }) });
    const answer = (await response.json()) as QueryAnswer;
    const error = answer.error ?? answer.results?.find((result) => result.error)?.error;
    if (!response.ok || error !== undefined) throw new Error(`InfluxDB ${statement}: ${error ?? response.status}`);
  };
  await query(`CREATE DATABASE "${database}"`);
  const agent = keptAliveAgent(64);
  const write = new URL(`/write?db=${database}`, url);
  return {
    name: `InfluxDB ${version}`,
    slug: "influxdb",
    protocols: ["HTTP", "UDP"],
    writeUrl: write.href,
    processes: localInfluxd(url),
    async observe(metric, receivers) {
      // Subscriptions are per retention policy, not per measurement: the bench has one case's at a time.
      const subscriptions = receivers.map((receiver, index) => {
        const scheme = destinationSchemes[receiver.protocol];
        if (scheme === undefined) throw new Error(`InfluxDB subscriptions have no ${receiver.protocol} destinations`);
        if (receiver.format !== "INFLUXDB") throw new Error(`InfluxDB subscriptions forward line protocol only`);
        return { name: `"${metric}-${index}"`, destination: `'${scheme}://${receiverHost}:${receiver.port}'` };
      });
      for (const { name, destination } of subscriptions) {
        await query(`CREATE SUBSCRIPTION ${name} ON ${retentionPolicy} DESTINATIONS ALL ${destination}`);
      }
      return async () => {
        for (const { name } of subscriptions) await query(`DROP SUBSCRIPTION ${name} ON ${retentionPolicy}`);
      };
    },
    async post(metric, data) {
      const body = data.map((datum) => formatLine(metric, datum)).join("");
      return refusal(await send(agent, write, { method: "POST", body, contentType: "text/plain" }), 204);
    },
    async close() {
      agent.destroy();
      await query(`DROP DATABASE "${database}"`);
    },
  };
}
