import { setTimeout as sleep } from "node:timers/promises";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { runLoad } from "../load/closed-loop.ts";
import { fixed, markdownTable } from "../report/markdown.ts";
import { readUsage, type Usage } from "../runtime/usage.ts";
import type { BenchContext, BenchSection } from "./section.ts";

const dataPerRequest = 1_000;
const vmCount = 1_000;
const provider = "bench-provider";
/** Tumbling windows of one second, closed one second after their end. */
const timeStep = 1;
const latenessSeconds = 1;
const stepMs = timeStep * 1000;
/** How long the bench waits for the rules to take in the data, for windows to close, and for the queue to empty. */
const waitTimeoutMs = 120_000;
const pollMs = 100;
/** How long after the last window's closing time the bench waits for its evaluation. */
const closeTimeoutMs = 30_000;
/**
 * How far ahead of the time a request is sent its data are stamped. The local queue (Miniflare)
 * hands the consumer no batch while the closed loop keeps the Worker busy, so the data sent first
 * reach the rules only after posting stopped, and a window closes its lateness after its end: with
 * this lead no datum is late unless taking the data in lasts longer than twice the posting, plus 3 s.
 */
const stampLeadSeconds = (postingSeconds: number) => 2 * postingSeconds + 2;
/** Status reads made to learn how many Durable Object requests one read costs. */
const calibrationReads = 20;

/** GET /v1/monitoring-rules/:id's `status` (JSON). */
interface RuleStatus {
  enabled: boolean;
  windowsEvaluated: number;
  dataRead: number;
  dataEmitted: number;
  dataLate: number;
  lastEvaluationAt: string | null;
  lastError: string | null;
}

type Grouping = "VM" | "CloudProvider";

interface BenchRule {
  id: string;
  aggregate: "Average" | "Max" | "Min" | "Sum" | "Count" | "Percentile";
  grouping: Grouping;
}

/** Output data per window of a rule grouped this way, when every VM has data in the window. */
const groupsOf: Record<Grouping, number> = { VM: vmCount, CloudProvider: 1 };

const vmId = (index: number) => `vm-${String(index).padStart(4, "0")}`;

/** One cloud provider and its 1,000 VMs. */
function model() {
  return {
    cloudProviders: [{ id: provider, type: "bench" }],
    vMs: Array.from({ length: vmCount }, (_, index) => ({
      id: vmId(index),
      type: "bench",
      cloudProvider: provider,
      numberOfCPUs: 2,
    })),
  };
}

function ruleDocument(metric: string, rules: readonly BenchRule[]) {
  return {
    monitoringRules: rules.map(({ id, aggregate, grouping }) => ({
      id,
      timeStep,
      timeWindow: timeStep,
      allowedLatenessSeconds: latenessSeconds,
      monitoredTargets: [{ class: "VM" }],
      collectedMetric: { metricName: metric },
      metricAggregation: {
        aggregateFunction: aggregate,
        groupingClass: grouping,
        ...(aggregate === "Percentile" ? { parameters: { thPercentile: "95" } } : {}),
      },
      actions: [{ name: "OutputMetric", parameters: { metric: `${id}-output` } }],
    })),
  };
}

/** The timestamp the request templates carry until a request goes out: no datum value is written like it. */
const placeholder = 9_999_999_999_999;
const templateCount = 8;

/**
 * Request bodies of 1,000 data of `metric`, one per VM, stamped with the time each request goes out
 * plus `leadMs` (the rules window by event time): templates split at the timestamp, joined when a
 * request is sent. Remembers the windows the stamps fall in.
 */
function stampedBodies(metric: string, leadMs: number) {
  const templates = Array.from({ length: templateCount }, (_, template) => {
    const data = Array.from({ length: dataPerRequest }, (_, index) => ({
      id: `r${template}-${index}`,
      metric,
      timestamp: placeholder,
      value: Math.random(),
      resourceId: vmId(index % vmCount),
    }));
    const parts = JSON.stringify(rdfJsonBody(data)).split(`"${placeholder}"`);
    if (parts.length !== dataPerRequest + 1) throw new Error("the timestamp placeholder is not unique");
    return parts;
  });
  const windowEnds = new Set<number>();
  const body = (sent: number) => {
    const stamp = Date.now() + leadMs;
    windowEnds.add((Math.floor(stamp / stepMs) + 1) * stepMs);
    return templates[sent % templateCount]!.join(`"${stamp}"`);
  };
  return { body, windowEnds };
}

/** Reads `read` every pollMs until `done` holds or the wait times out; `reads` counts the reads. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = waitTimeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let reads = 0;
  for (;;) {
    const value = await read();
    reads += 1;
    if (done(value)) return { value, reads, timedOut: false };
    if (Date.now() > deadline) return { value, reads, timedOut: true };
    await sleep(pollMs);
  }
}

/** Every message written to the intake queue (data and rule outputs) has reached a consumer. */
const queueEmpty = (usage: Usage) => usage.queueMessagesRead >= usage.queueMessagesWritten;

async function expectStatus(response: Promise<Response>, expected: number, what: string) {
  const answer = await response;
  if (answer.status !== expected) {
    throw new Error(`${what}: expected ${expected}, got ${answer.status} ${await answer.text()}`);
  }
}

interface CaseResult {
  label: string;
  rules: readonly BenchRule[];
  accepted: number;
  requestErrors: number;
  /** Intake queue messages written, and read by the consumer, while the load lasted. */
  messagesWrittenWhilePosting: number;
  messagesReadWhilePosting: number;
  /** From the first request until every datum was consumed (no rule) or taken in by every rule. */
  seconds: number;
  /** Durable Object requests per 1,000 accepted data, from posting until the last window's output was consumed. */
  durableObjectRequests: number;
  statuses: RuleStatus[];
  expectedWindows: number;
  timedOut: string[];
}

/**
 * Posts stamped 1,000-datum requests to `metric` for the section's seconds, with `rules` reading it,
 * and waits until every rule took in every accepted datum (or, without rules, until the consumer
 * received every message), then until the windows closed and their output was consumed.
 */
async function runCase(
  { settings, serviceUrl, progress }: BenchContext,
  label: string,
  metric: string,
  rules: readonly BenchRule[],
): Promise<CaseResult> {
  const ruleUrl = (id: string) => `${serviceUrl}/v1/monitoring-rules/${encodeURIComponent(id)}`;
  const readStatuses = () =>
    Promise.all(
      rules.map(async ({ id }) => {
        const response = await fetch(ruleUrl(id), { headers: { accept: "application/json" } });
        if (!response.ok) throw new Error(`rule ${id}: HTTP ${response.status}`);
        return ((await response.json()) as { status: RuleStatus }).status;
      }),
    );
  let readCost = 0;
  if (rules.length > 0) {
    await expectStatus(
      fetch(`${serviceUrl}/v1/monitoring-rules`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(ruleDocument(metric, rules)),
      }),
      204,
      `installing the rules of ${label}`,
    );
    // The bench's own status reads are Durable Object requests too: what one costs, to leave them out.
    const unread = await readUsage(serviceUrl);
    for (let read = 0; read < calibrationReads; read++) {
      const response = await fetch(ruleUrl(rules[read % rules.length]!.id), {
        headers: { accept: "application/json" },
      });
      await response.arrayBuffer();
    }
    readCost = Math.round(
      ((await readUsage(serviceUrl)).durableObjectRequests - unread.durableObjectRequests) / calibrationReads,
    );
  }
  const { body, windowEnds } = stampedBodies(metric, stampLeadSeconds(settings.rulesSeconds) * 1000);
  const before = await readUsage(serviceUrl);
  const started = performance.now();
  const load = await runLoad({
    url: `${serviceUrl}/monitoringdata`,
    method: "POST",
    body,
    expectedStatus: 204,
    concurrency: settings.concurrency,
    seconds: settings.rulesSeconds,
  });
  const posted = await readUsage(serviceUrl);
  const accepted = posted.dataAccepted - before.dataAccepted;
  const timedOut: string[] = [];
  let statusReads = 0;
  let statuses: RuleStatus[] = [];
  if (rules.length === 0) {
    const consumed = await until(() => readUsage(serviceUrl), queueEmpty);
    if (consumed.timedOut) timedOut.push("consumption");
  } else {
    const taken = await until(readStatuses, (all) =>
      all.every((status) => status.dataRead + status.dataLate >= accepted),
    );
    statusReads += taken.reads * rules.length;
    if (taken.timedOut) timedOut.push("reading");
  }
  const seconds = (performance.now() - started) / 1000;
  if (rules.length > 0) {
    // The last window closes its lateness after its end; its evaluation is the rule's last.
    const lastClose = Math.max(...windowEnds) + latenessSeconds * 1000;
    await sleep(lastClose - Date.now());
    // A rule that read nothing has no window to close.
    const closed = await until(
      readStatuses,
      (all) =>
        all.every(
          (status) =>
            status.dataRead === 0 ||
            (status.lastEvaluationAt !== null && Date.parse(status.lastEvaluationAt) >= lastClose),
        ),
      closeTimeoutMs,
    );
    statusReads += closed.reads * rules.length;
    statuses = closed.value;
    if (closed.timedOut) timedOut.push("windows closing");
  }
  // The windows' output goes through the intake queue: its consumption is the rules' work too.
  const drained = await until(() => readUsage(serviceUrl), queueEmpty);
  if (drained.timedOut) timedOut.push("the rules' output consumed");
  const after = drained.value;
  const requests = after.durableObjectRequests - before.durableObjectRequests - statusReads * readCost;
  if (statusReads > 0) {
    progress(`rules: ${label}: ${statusReads} status reads of ${readCost} Durable Object request(s) each left out`);
  }
  return {
    label,
    rules,
    accepted,
    requestErrors: load.errors,
    messagesWrittenWhilePosting: posted.queueMessagesWritten - before.queueMessagesWritten,
    messagesReadWhilePosting: posted.queueMessagesRead - before.queueMessagesRead,
    seconds,
    durableObjectRequests: (requests * 1_000) / accepted,
    statuses,
    expectedWindows: windowEnds.size,
    timedOut,
  };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Monitoring rules on the data path: data/s through the intake, the queue and the rules with no
 * rule, one rule and ten rules reading the metric, and the Durable Object requests the rules add.
 */
export const rulesSection: BenchSection = async (bench) => {
  const { settings, serviceUrl, progress } = bench;
  const oneRule: BenchRule[] = [{ id: "bench-rules-one-average-vm", aggregate: "Average", grouping: "VM" }];
  const tenRules: BenchRule[] = [
    ...(["Average", "Max", "Min", "Sum", "Count", "Percentile"] as const).map((aggregate) => ({
      id: `bench-rules-ten-${aggregate.toLowerCase()}-vm`,
      aggregate,
      grouping: "VM" as const,
    })),
    ...(["Average", "Max", "Count", "Percentile"] as const).map((aggregate) => ({
      id: `bench-rules-ten-${aggregate.toLowerCase()}-provider`,
      aggregate,
      grouping: "CloudProvider" as const,
    })),
  ];
  progress("rules: uploading a model of 1,000 VMs");
  await expectStatus(
    fetch(`${serviceUrl}/v1/resources`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(model()),
    }),
    204,
    "uploading the model",
  );
  const results: CaseResult[] = [];
  try {
    progress("rules: warm-up");
    await runCase({ ...bench, settings: { ...settings, rulesSeconds: 1 } }, "warm-up", "bench-rules-warm-up", []);
    progress("rules: no rule");
    results.push(await runCase(bench, "no rule", "bench-rules-none", []));
    progress("rules: one rule");
    results.push(await runCase(bench, "one rule", "bench-rules-one", oneRule));
    progress("rules: ten rules");
    results.push(await runCase(bench, "ten rules", "bench-rules-ten", tenRules));
  } finally {
    for (const { id } of [...oneRule, ...tenRules]) {
      const response = await fetch(`${serviceUrl}/v1/monitoring-rules/${encodeURIComponent(id)}`, { method: "DELETE" });
      if (response.status !== 204) progress(`rules: deleting rule ${id} answered ${response.status}`);
    }
  }

  const [baseline, ...ruleCases] = results as [CaseResult, ...CaseResult[]];
  const perSecond = (result: CaseResult) => result.accepted / result.seconds;
  const added = (result: CaseResult) => result.durableObjectRequests - baseline.durableObjectRequests;
  const rows = results.map((result) => {
    const { statuses, rules } = result;
    const withRules = rules.length > 0;
    const total = (count: (status: RuleStatus) => number) => fixed(sum(statuses.map(count)));
    const expectedEmitted = sum(rules.map(({ grouping }) => groupsOf[grouping] * result.expectedWindows));
    return [
      result.label,
      fixed(result.accepted),
      `${fixed(result.messagesReadWhilePosting)} of ${fixed(result.messagesWrittenWhilePosting)}`,
      withRules ? fixed(Math.min(...statuses.map((status) => status.dataRead))) : "–",
      fixed(result.seconds, 1),
      fixed(perSecond(result)),
      fixed(perSecond(result) / perSecond(baseline), 2),
      fixed(result.durableObjectRequests, 3),
      withRules ? fixed(added(result), 3) : "–",
      withRules
        ? `${total((status) => status.windowsEvaluated)} of ${fixed(result.expectedWindows * rules.length)}`
        : "–",
      withRules ? `${total((status) => status.dataEmitted)} of ${fixed(expectedEmitted)}` : "–",
      withRules ? total((status) => status.dataLate) : "–",
      withRules ? fixed(statuses.filter((status) => status.lastError !== null).length) : "–",
    ];
  });
  const problems = results.flatMap((result) => {
    const { label, statuses, accepted } = result;
    const short = statuses.filter((status) => status.dataRead !== accepted).length;
    const late = sum(statuses.map((status) => status.dataLate));
    const errors = [...new Set(statuses.flatMap((status) => (status.lastError === null ? [] : [status.lastError])))];
    return [
      ...(result.requestErrors > 0 ? [`${label}: ${fixed(result.requestErrors)} requests not accepted`] : []),
      ...result.timedOut.map((wait) => `${label}: timed out waiting for ${wait}`),
      ...(short > 0 ? [`${label}: ${short} of ${statuses.length} rules read other than the data accepted`] : []),
      ...(late > 0 ? [`${label}: ${fixed(late)} data late`] : []),
      ...errors.map((error) => `${label}: rule error "${error}"`),
    ];
  });
  const summary = ruleCases
    .map(
      (result) =>
        `${result.label} **${fixed(perSecond(result) / perSecond(baseline), 2)}** × the no-rule data/s and ` +
        `${fixed(added(result), 3)} Durable Object requests more per 1,000 data`,
    )
    .join("; ");
  const lead = stampLeadSeconds(settings.rulesSeconds);
  return [
    `Monitoring rules: a closed loop of ${settings.concurrency} clients posts ${fixed(dataPerRequest)}-datum ` +
      `requests for ${settings.rulesSeconds} s to a metric read by no rule, by one rule (Average by VM), and by ` +
      "ten rules (Average, Max, Min, Sum, Count, 95th Percentile by VM; Average, Max, Count, 95th Percentile by " +
      `CloudProvider), each case a metric of its own, over a model of one cloud provider and ${fixed(vmCount)} VMs. ` +
      `A request holds one datum per VM. Tumbling windows of ${timeStep} s, closed ${latenessSeconds} s after ` +
      `their end; data are stamped ${lead} s after the time they are sent, since the local queue hands the ` +
      'consumer few or no messages while the load lasts ("read while posting") and a window whose data come after ' +
      "it closed counts them as late. Data/s: data accepted over the time from the first request until every " +
      "rule's status counted every accepted datum as read or late (no rule: until the consumer had received every " +
      "queue message). Durable Object requests (GET /v1/usage) per 1,000 accepted data, from the first request " +
      "until the last window's output was consumed, the bench's own status reads left out; the rules' share is " +
      "the difference with the no-rule case. Windows evaluated and data emitted are summed over the rules and " +
      `compared with what the stamps imply (every VM in every window: ${fixed(vmCount)} outputs a window by VM, ` +
      "one by CloudProvider).",
    "",
    ...markdownTable(
      [
        "rules",
        "data accepted",
        "queue messages read while posting",
        "least read by a rule",
        "seconds",
        "data/s",
        "÷ no rule",
        "DO requests / 1,000 data",
        "added by the rules",
        "windows evaluated",
        "data emitted",
        "data late",
        "rules with an error",
      ],
      rows,
    ),
    "",
    `Through the rules: ${summary}; ` +
      (problems.length === 0
        ? "every rule read every accepted datum, none late, no rule error."
        : `problems: ${problems.join("; ")}.`),
  ];
};
