import type { Protocol } from "../load/receivers/receivers.ts";
import { type DeliveryResult, type DeliveryWaits, runDeliveryCase } from "../load/rounds/delivery-case.ts";
import type { SystemUnderTest } from "../load/systems/system-under-test.ts";
import { deliveryFigureCells, deliveryFigureColumns, perDelivery } from "../report/delivery-figures.ts";
import { fixed, markdownTable } from "../report/markdown.ts";
import type { ProcessRole } from "../runtime/process-accounting.ts";
import type { BenchSection } from "./section.ts";

const dataPerRequest = 100;
/** An unmeasured case first, so that the first measured one does not carry the compiling of the path. */
const warmUpSeconds = 2;
const waits: DeliveryWaits = { settleTimeoutSeconds: 120, quietSeconds: 10, drainTimeoutSeconds: 60 };

interface Measured {
  system: SystemUnderTest;
  protocol: Protocol;
  observers: number;
  rate: number;
  result: DeliveryResult;
}

const resultColumns = ["observers", "system", ...deliveryFigureColumns, "Worker CPU µs per datum-delivery"];
/** TCP and UDP go through the relay: its CPU too. */
const relayColumns = [...resultColumns, "relay CPU µs per datum-delivery"];
/** UDP tables add what the kernel says about datagrams dropped at the receivers. */
const udpColumns = [...relayColumns, "datagrams dropped by receive buffers"];
const columns: Record<Protocol, string[]> = { HTTP: resultColumns, TCP: relayColumns, UDP: udpColumns };

function resultRow({ system, protocol, observers, rate, result }: Measured): string[] {
  const cpu = (role: ProcessRole) => perDelivery(result.cpuSeconds?.[role], result, observers);
  const row = [
    String(observers),
    system.name,
    ...deliveryFigureCells(rate, result),
    cpu("worker"),
    ...(protocol === "HTTP" ? [] : [cpu("relay")]),
  ];
  if (protocol !== "UDP") return row;
  return [...row, result.receiveBufferDrops === undefined ? "–" : fixed(result.receiveBufferDrops)];
}

function ratioRows(measured: readonly Measured[], ours: SystemUnderTest, theirs: SystemUnderTest): string[][] {
  return measured
    .filter((entry) => entry.system === ours)
    .flatMap((entry) => {
      const other = measured.find(
        (candidate) =>
          candidate.system === theirs &&
          candidate.protocol === entry.protocol &&
          candidate.observers === entry.observers,
      );
      if (other === undefined) return [];
      const ratio = (pick: (result: DeliveryResult) => number) => fixed(pick(entry.result) / pick(other.result), 2);
      return [
        [
          entry.protocol,
          String(entry.observers),
          ratio((result) => result.deliveredPerSecond),
          ratio((result) => result.p50),
          ratio((result) => result.p99),
        ],
      ];
    });
}

/**
 * End-to-end delivery with 1, 10 and 100 observers of one metric over each protocol, and the same
 * job done by InfluxDB (write + subscription) when one runs here, as ratios.
 */
export const deliverySection: BenchSection = async ({ settings, towerEdge, influxDb, processes, progress }) => {
  const systems = influxDb === undefined ? [towerEdge] : [towerEdge, influxDb];
  progress("delivery: warm-up");
  await runDeliveryCase(
    {
      system: towerEdge,
      protocol: "HTTP",
      observers: 1,
      label: "warm-up",
      rate: settings.deliveryRate,
      dataPerRequest,
      seconds: warmUpSeconds,
    },
    waits,
  );
  const measured: Measured[] = [];
  for (const protocol of settings.protocols) {
    for (const observers of settings.observerCounts) {
      const rate = Math.min(settings.deliveryRate, settings.fanOutRate / observers);
      for (const system of systems.filter((candidate) => candidate.protocols.includes(protocol))) {
        progress(`delivery: ${system.name}, ${observers} ${protocol} observers, ${fixed(rate)} data/s`);
        const result = await runDeliveryCase(
          {
            system,
            protocol,
            observers,
            rate,
            dataPerRequest,
            seconds: settings.seconds,
            processes: system === towerEdge ? processes : undefined,
          },
          waits,
        );
        progress(
          `  settled in ${fixed(result.settleSeconds, 1)} s; delivered ${fixed(result.deliveredPerSecond)} data/s per observer, ` +
            `p50 ${fixed(result.p50)} ms, p99 ${fixed(result.p99)} ms, lost ${result.lost}`,
        );
        for (const [reason, data] of result.rejections) progress(`  ${fixed(data)} data refused: ${reason}`);
        for (const failure of result.failures) progress(`  ${failure}`);
        measured.push({ system, protocol, observers, rate, result });
      }
    }
  }

  const lines = [
    `Delivery: an open loop posts data to one metric for ${settings.seconds} s, in requests of ${dataPerRequest}, ` +
      `at ${fixed(settings.deliveryRate)} data/s or, with many observers, ${fixed(settings.fanOutRate)} ` +
      'deliveries/s ÷ observers (the "rate" column). The observers take INFLUXDB line protocol whose value is ' +
      "the datum's sequence number (over 1,000 resource ids); the bench keeps when it posted each. Latency runs " +
      "from post to first arrival, p50/p99 over every datum and observer. Delivered data/s: the data an observer " +
      "received within the posting window shifted by the median latency, per second of that window, averaged over " +
      "observers: the posting rate when the system keeps up, less as a backlog builds. Lost: accepted data an observer " +
      `had not received when nothing more arrived for ${waits.quietSeconds} s, summed over observers; for UDP, ` +
      "the kernel's count of datagrams dropped at full receive buffers (this machine, all sockets) tells how much " +
      "of that the receivers dropped. Before each case a probe datum has to reach every observer, so that earlier " +
      `cases' backlogs are drained, and an unmeasured ${warmUpSeconds} s case with one HTTP observer runs first. ` +
      `CPU per datum-delivery: the CPU time (utime + stime in /proc) of ${processes.worker.describe()}, and over ` +
      `TCP and UDP of ${processes.relay.describe()}, from the first post until the deliveries were in, ` +
      "÷ (data accepted × observers); the Worker's includes taking the data in.",
    "",
  ];
  lines.push(
    influxDb === undefined
      ? `No InfluxDB answered GET /ping at ${settings.influxDbUrl}: no comparison (.ci/install-interop-servers.sh starts one).`
      : `${influxDb.name} does the same job on the same schedule: data written with POST /write (line protocol), ` +
          "copied to the same kind of observers by one subscription per observer; it has no TCP destinations.",
    "",
  );
  for (const protocol of settings.protocols) {
    const entries = measured.filter((entry) => entry.protocol === protocol);
    lines.push(`${protocol} observers:`, "", ...markdownTable(columns[protocol], entries.map(resultRow), 2), "");
  }
  if (influxDb !== undefined) {
    lines.push(
      `tower-edge ÷ ${influxDb.name}, same run: a delivered data/s ratio above 1 and latency ratios below 1 favour tower-edge.`,
      "",
      ...markdownTable(
        ["protocol", "observers", "delivered data/s ratio", "p50 ratio", "p99 ratio"],
        ratioRows(measured, towerEdge, influxDb),
        2,
      ),
      "",
    );
  }
  return lines;
};
