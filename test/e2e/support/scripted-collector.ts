/*
 * A data collector written from the original's protocol alone, following its Java DCAgent step by
 * step: it registers (POST, expects exactly 201 {"id"}), asks for its configuration every
 * configSyncPeriod seconds (expects 200; also a keep-alive), sends a keep-alive (expects 204) only
 * when max(keepAlive − 10, 10) < configSyncPeriod, and after any other answer to those two
 * registers again by PUT under its old id (expects 201; any other answer stops its loops for good).
 * No answer at all (the service is down) is no answer: it tries again at the next period.
 * Data are buffered per metric and flushed one second after the first datum, one POST of
 * [{resourceId, metric, value}] per metric to the configuration's daUrl (expects 200), never
 * retried; data about a resource no configuration of the metric is about are not sent.
 *
 * `timeScale` compresses the collector's own clock (0.1: a "second" of its periods lasts 100 ms),
 * so that a test sees several rounds without waiting for them; the periods it registers stay
 * the original's seconds, which the service keeps in real time.
 */

interface MonitoredResource {
  clazz: string;
  id: string;
  type?: string;
}

export interface CollectorDescription {
  resources: object[];
  monitoredResourcesByMetric: Record<string, MonitoredResource[]>;
  keepAlive: number;
  configSyncPeriod: number;
}

type Configuration = Record<string, { targetResources: [string, string | null, string | null][]; daUrl: string }[]>;

export interface ScriptedCollector {
  readonly id: string | undefined;
  /** The configuration of the latest successful sync. */
  readonly configuration: Configuration;
  /** Every request it made, as "METHOD path → status" (the service's address left out). */
  readonly log: string[];
  /** Registrations again by PUT after an answer other than the expected one. */
  readonly reregistrations: number;
  /** Data posted to a stream and answered 200. */
  readonly dataSent: number;
  /** Whether its loops stopped for good (a failed registration). */
  readonly stopped: boolean;
  /** Registers, then runs its loops. */
  start(): Promise<void>;
  /** Hands it a datum, as the collectors built on the DCAgent do. */
  send(metric: string, resourceId: string, value: number | string | boolean): void;
  /** Stops its loops without a word to the service, as a collector that dies does. */
  stop(): void;
}

/** The original's client's own checks of its periods. */
function checkPeriods({ keepAlive, configSyncPeriod }: CollectorDescription): void {
  if (keepAlive !== 0 && keepAlive < 10) throw new Error("keepAlive must be 0 or at least 10");
  if (configSyncPeriod < 10) throw new Error("configSyncPeriod must be at least 10");
}

/** Whether the target `[class, type, id]` is about the resource, as the client checks before sending. */
function targets([clazz, type, id]: [string, string | null, string | null], resource: MonitoredResource): boolean {
  if (id !== null) return id === resource.id;
  if (type !== null && resource.type !== undefined) return type === resource.type;
  return clazz === resource.clazz;
}

/** `managerUrl` is read at every request, so that a restarted service on another port is found again. */
export function scriptedCollector(
  managerUrl: () => string,
  description: CollectorDescription,
  timeScale = 1,
): ScriptedCollector {
  checkPeriods(description);
  const second = 1000 * timeScale;
  let id: string | undefined;
  let configuration: Configuration = {};
  const log: string[] = [];
  let reregistrations = 0;
  let dataSent = 0;
  let stopped = false;
  const timers: ReturnType<typeof setInterval>[] = [];
  const buffers = new Map<string, { resourceId: string; metric: string; value: unknown }[]>();

  async function call(method: string, url: string, body?: unknown): Promise<Response | undefined> {
    try {
      const response = await fetch(url, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
      });
      log.push(`${method} ${new URL(url).pathname} → ${response.status}`);
      return response;
    } catch {
      log.push(`${method} ${new URL(url).pathname} → no answer`);
      return undefined;
    }
  }

  async function reregister(): Promise<void> {
    reregistrations += 1;
    const answer = await call("PUT", `${managerUrl()}/v1/data-collectors/${id}`, description);
    if (answer !== undefined && answer.status !== 201) stop();
  }

  async function sync(): Promise<void> {
    const answer = await call("GET", `${managerUrl()}/v1/data-collectors/${id}/configuration`);
    if (answer === undefined) return;
    if (answer.status === 200) configuration = (await answer.json()) as Configuration;
    else await reregister();
  }

  async function keepAlive(): Promise<void> {
    const answer = await call("GET", `${managerUrl()}/v1/data-collectors/${id}/keepalive`);
    if (answer !== undefined && answer.status !== 204) await reregister();
  }

  function every(seconds: number, work: () => Promise<void>): void {
    let running = false;
    timers.push(
      setInterval(async () => {
        if (running || stopped) return;
        running = true;
        await work().finally(() => {
          running = false;
        });
      }, seconds * second),
    );
  }

  async function flush(metric: string): Promise<void> {
    const data = buffers.get(metric) ?? [];
    buffers.delete(metric);
    const daUrl = configuration[metric]?.[0]?.daUrl;
    if (!daUrl || data.length === 0) return;
    const answer = await call("POST", daUrl, data);
    if (answer?.status === 200) dataSent += data.length;
  }

  function stop(): void {
    stopped = true;
    for (const timer of timers) clearInterval(timer);
  }

  return {
    get id() {
      return id;
    },
    get configuration() {
      return configuration;
    },
    log,
    get reregistrations() {
      return reregistrations;
    },
    get dataSent() {
      return dataSent;
    },
    get stopped() {
      return stopped;
    },
    async start() {
      const answer = await call("POST", `${managerUrl()}/v1/data-collectors`, description);
      if (answer?.status !== 201) throw new Error(`registration answered ${answer?.status}`);
      id = ((await answer.json()) as { id: string }).id;
      every(description.configSyncPeriod, sync);
      const keepAlivePeriod = Math.max(description.keepAlive - 10, 10);
      if (description.keepAlive > 0 && keepAlivePeriod < description.configSyncPeriod)
        every(keepAlivePeriod, keepAlive);
    },
    send(metric, resourceId, value) {
      const declared = description.monitoredResourcesByMetric[metric]?.find((resource) => resource.id === resourceId);
      const wanted =
        declared &&
        configuration[metric]?.some((entry) => entry.targetResources.some((target) => targets(target, declared)));
      if (!wanted) return;
      const buffer = buffers.get(metric);
      if (buffer) {
        buffer.push({ resourceId, metric, value });
        return;
      }
      buffers.set(metric, [{ resourceId, metric, value }]);
      setTimeout(() => void flush(metric), 1000);
    },
    stop,
  };
}
