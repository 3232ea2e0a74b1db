import type { BenchSectionName } from "../settings.ts";
import { markdownTable } from "./markdown.ts";

/** The performance issue's targets, in the order the report's Targets table lists them. */
const targetList = [
  {
    id: "intake-vs-json-parse",
    figure: "accepted data/s, 1,000-datum requests ÷ `JSON.parse` ceiling",
    target: "≥ 0.8",
    section: "intake",
  },
  {
    id: "four-http-observers",
    figure: "delivered data/s to each of 4 HTTP observers (TOWER/JSON, one metric), 1,000-datum requests",
    target: "≥ 160k, p99 ≤ 1 s, 0 lost",
    section: "four-observers",
  },
  {
    id: "healthz-vs-floor",
    figure: "`GET /healthz` req/s ÷ the platform floor (a one-line no-op Worker, same launcher path and load)",
    target: "≥ 0.9",
    section: "intake",
  },
  {
    id: "single-post-vs-floor",
    figure: "single-datum POST req/s ÷ the platform floor",
    target: "≥ 0.5",
    section: "intake",
  },
  {
    id: "single-datum-post",
    figure: "single-datum POST, req/s on `npm start`",
    target: "≥ 2,500, and ≥ 0.9 × `/healthz`",
    section: "intake",
  },
  {
    id: "cpu-per-accepted-datum",
    figure: "Worker CPU per accepted datum (1,000-datum requests, with their consumption)",
    target: "≤ 5 µs",
    section: "intake",
  },
  {
    id: "cpu-per-delivery",
    figure: "Worker CPU per datum-delivery (the 4-HTTP-observer case)",
    target: "≤ 1.5 µs",
    section: "four-observers",
  },
  {
    id: "soak-live-heap",
    figure:
      "the Worker isolate's live heap over a soak at 20k data/s to 2 HTTP observers: peak, and growth over the last 20 min",
    target: "< 64 MiB, < 5 %",
    section: "soak",
  },
  {
    id: "platform-operations",
    figure: "platform: queue messages and Durable Object requests per 1,000 data in batched intake",
    target: "≤ 2 and ≤ 0.1",
    section: "operations",
  },
  {
    id: "agent-line-protocol-vs-influxdb",
    figure:
      "line protocol field values/s (Telegraf cpu, 10,000 per request) ÷ InfluxDB 1.6's `/write` of the same bodies",
    target: "≥ 0.5, plain and gzip",
    section: "agents",
  },
  {
    id: "agent-cpu-line-protocol",
    figure: "Worker CPU per accepted datum, line protocol (while the requests ran)",
    target: "≤ 2 µs, plain and gzip",
    section: "agents",
  },
  {
    id: "agent-cpu-remote-write",
    figure: "Worker CPU per accepted datum, Prometheus remote write (while the requests ran)",
    target: "≤ 2 µs",
    section: "agents",
  },
  {
    id: "agent-cpu-otlp",
    figure: "Worker CPU per accepted datum, OTLP protobuf (while the requests ran)",
    target: "≤ 3 µs",
    section: "agents",
  },
  {
    id: "agent-queue-messages",
    figure: "queue messages written per accepted datum, each agent protocol",
    target: "≤ RDF/JSON 1,000-datum batches'",
    section: "agents",
  },
  {
    id: "agent-known-metric-object-requests",
    figure: "Durable Object requests of an agent request whose metrics are known",
    target: "0",
    section: "agents",
  },
  {
    id: "selector-fan-out-cpu",
    figure:
      "Worker CPU per datum-delivery, one selector observer following 1,000 metrics vs one per-metric observer of " +
      "one metric (remote write, TOWER/JSON over HTTP, same data)",
    target: "≤ per-metric's + 0.2 µs",
    section: "selectors",
  },
  {
    id: "selector-fan-out-rate",
    figure: "sustained delivered data/s, the selector observer ÷ the per-metric observer (same cases)",
    target: "≥ 0.8, 0 lost",
    section: "selectors",
  },
  {
    id: "selector-object-requests",
    figure: "Durable Object requests of a selector observer's object per batch, batches of 1 and of 100 metrics",
    target: "bounded by a constant (expected 2), not by the number of metrics",
    section: "selectors",
  },
  {
    id: "selector-hot-path-cpu",
    figure:
      "Worker CPU per datum, intake and consumer, with 100 selector observers that match none of the data, over none",
    target: "≤ 0.1 µs",
    section: "selectors",
  },
  {
    id: "backend-hop-vs-vmagent",
    figure:
      "CPU per sample, remote write in → one PROMETHEUS selector observer out (the whole `npm start` tree) ÷ vmagent " +
      "forwarding the same bodies; samples lost over 1,000,000",
    target: "≤ 8, 0 lost",
    section: "backends",
  },
  {
    id: "backend-format-cpu",
    figure: "Worker CPU per datum-delivery, PROMETHEUS and INFLUXDB ÷ TOWER/JSON (same remote write data, same run)",
    target: "≤ 1.2 each",
    section: "backends",
  },
  {
    id: "backend-format-cpu-otlp",
    figure: "Worker CPU per datum-delivery, OTLP ÷ TOWER/JSON (same remote write data, same run)",
    target: "≤ 1.5",
    section: "backends",
  },
] as const satisfies readonly { id: string; figure: string; target: string; section: BenchSectionName }[];

export type TargetId = (typeof targetList)[number]["id"];

/** A target's measurement in this run: the figure as the report shows it, and whether it meets the target. */
export interface TargetOutcome {
  measured: string;
  met: boolean;
}

/**
 * Collects, as the sections run, each target's figure, and figures another section adds beside it
 * (which do not decide whether the target is met); renders the Targets table at the end.
 */
export class TargetBoard {
  private readonly outcomes = new Map<TargetId, TargetOutcome>();
  private readonly notes = new Map<TargetId, string[]>();

  record(id: TargetId, outcome: TargetOutcome): void {
    this.outcomes.set(id, outcome);
  }

  /** A figure shown beside the target's own, labelled by `note` itself. */
  annotate(id: TargetId, note: string): void {
    this.notes.set(id, [...(this.notes.get(id) ?? []), note]);
  }

  /** The Targets section: each target, its figure in this run, met or not; a target whose section did not run says so. */
  lines(): string[] {
    const rows = targetList.map(({ id, figure, target, section }) => {
      const outcome = this.outcomes.get(id);
      const measured = [
        outcome?.measured ?? `not measured (section "${section}" not run)`,
        ...(this.notes.get(id) ?? []),
      ];
      const result = outcome === undefined ? "–" : outcome.met ? "met" : "**not met**";
      return [figure, target, measured.join("; "), result];
    });
    const met = [...this.outcomes.values()].filter((outcome) => outcome.met).length;
    return [
      "Targets: each target of the performance issue, the figure this run measured for it (from the sections " +
        "above, where it is explained) and whether it meets the target.",
      "",
      ...markdownTable(["figure", "target", "this run", "result"], rows, 4),
      "",
      `Targets met: **${met} of ${targetList.length}**${this.outcomes.size < targetList.length ? ` (${targetList.length - this.outcomes.size} not measured in this run)` : ""}.`,
    ];
  }
}
