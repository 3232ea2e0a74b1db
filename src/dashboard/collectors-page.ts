import { api } from "./api";
import type { CollectorState } from "./api-types";
import { h } from "./dom";
import { formatMoment } from "./format";
import { pageHeader, section } from "./layout";
import type { Page } from "./page";
import { table } from "./table";

interface CollectorRow {
  id: string;
  resources: string;
  metrics: string;
  configuration: string;
  lastHeard: string;
  expiring: string;
}

/** "in 12 s", "in 3 min", "due now", or "never" for a collector with no keep-alive. */
function expiringIn(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return "never";
  const seconds = Math.round((Date.parse(expiresAt) - now) / 1000);
  if (seconds <= 0) return "due now";
  return seconds < 120 ? `in ${seconds} s` : `in ${Math.round(seconds / 60)} min`;
}

/**
 * What a collector is asked to send, in words: per metric its configurations' targets as
 * class/type/id, `*` where a rule names none. The stream address is left out: it is the same for
 * every collector, and the one a collector is handed carries its token.
 */
function configurationWords(configuration: CollectorState["configuration"]): string {
  const metrics = Object.entries(configuration);
  if (metrics.length === 0) return "nothing yet: no installed rule collects what it declared";
  return metrics
    .map(([metric, entries]) => {
      const targets = entries.flatMap((entry) =>
        entry.targetResources.map((target) => target.map((part) => part ?? "*").join("/")),
      );
      return `${metric}: ${targets.join(", ")}`;
    })
    .join("; ");
}

function collectorRow(collector: CollectorState, now: number): CollectorRow {
  const { descriptor } = collector;
  return {
    id: collector.id,
    resources:
      descriptor.resources.length === 0
        ? "—"
        : descriptor.resources.map((resource) => `${resource.id} (${resource.clazz})`).join(", "),
    metrics: Object.keys(descriptor.monitoredResourcesByMetric).join(", ") || "—",
    configuration: configurationWords(collector.configuration),
    lastHeard: formatMoment(collector.lastHeardAt),
    expiring: expiringIn(collector.expiresAt, now),
  };
}

/** `#/collectors`: the data collectors of the original's protocol, what they declared and what they are asked. */
export function collectorsPage(): Page {
  const collectors = table<CollectorRow>({
    label: "Data collectors",
    keyOf: (row) => row.id,
    empty: "No data collector is registered: collectors register with POST /v1/data-collectors.",
    columns: [
      { label: "Collector", width: "16%", text: (row) => row.id },
      { label: "Resources", width: "20%", text: (row) => row.resources },
      { label: "Declared metrics", width: "15%", text: (row) => row.metrics },
      { label: "Configuration", width: "27%", text: (row) => row.configuration },
      { label: "Last heard from", width: "11%", text: (row) => row.lastHeard },
      { label: "Expiring", width: "11%", text: (row) => row.expiring },
    ],
  });
  const element = h(
    "div",
    { class: "page" },
    pageHeader(
      "Collectors",
      h(
        "p",
        { class: "page-meta muted" },
        "Agents of the original's protocol: they register their resources, learn from the rules what to send, and keep themselves alive.",
      ),
    ),
    section("Registered collectors", collectors.element),
  );
  return {
    title: "Collectors",
    element,
    async refresh() {
      const states = await api.collectors();
      const now = Date.now();
      collectors.update(states.map((state) => collectorRow(state, now)));
    },
  };
}
