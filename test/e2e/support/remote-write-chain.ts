import { type PrometheusAgent, startPrometheusAgent } from "./prometheus-agent.ts";
import { type ScrapeTarget, startScrapeTarget, type TargetGauge } from "./scrape-target.ts";
import { type Service, startService } from "./service.ts";
import type { StoredSeries } from "./stored-series.ts";

/** A remote-write backend the tests deliver to and read back from. */
export interface RemoteWriteBackend {
  /** Where a `PROMETHEUS` observer sends. */
  readonly writeUrl: string;
  /** The series the selector matches, as stored, in any order. */
  read(selector: string): Promise<StoredSeries[]>;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Scrape target → Prometheus agent → this service → a `PROMETHEUS` observer that follows
 * `selector` → the backend. The observer is registered before the agent starts, so it gets every
 * scrape.
 */
export interface RemoteWriteChain {
  readonly target: ScrapeTarget;
  /** The observer as the service reports it (its delivery status), and what the agent logged. */
  diagnosis(): Promise<string>;
  stop(): Promise<void>;
}

export async function startRemoteWriteChain(options: {
  backend: RemoteWriteBackend;
  gauges: readonly TargetGauge[];
  scrapes: number;
  job: string;
  selector: string;
}): Promise<RemoteWriteChain> {
  const { backend, gauges, scrapes, job, selector } = options;
  const started: { service?: Service; target?: ScrapeTarget; agent?: PrometheusAgent } = {};
  const stop = async () => {
    await started.agent?.stop();
    await started.target?.close();
    await started.service?.stop();
  };
  try {
    const service = await startService();
    started.service = service;
    const registered = await service.call("POST", "/observers", {
      match: [selector],
      format: "PROMETHEUS",
      callbackUrl: backend.writeUrl,
    });
    if (registered.status !== 201) {
      throw new Error(`registration answered ${registered.status}: ${JSON.stringify(registered.body)}`);
    }
    const target = await startScrapeTarget(gauges, scrapes);
    started.target = target;
    const agent = await startPrometheusAgent({
      jobs: [{ name: job, target: target.address }],
      remoteWriteUrl: `${service.url}/api/v1/write`,
    });
    started.agent = agent;
    return {
      target,
      async diagnosis() {
        const observer = await service.call("GET", `/observers/${registered.body.id}`);
        return `the observer: ${JSON.stringify(observer.body)}\nthe agent logged:\n${agent.log()}`;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
