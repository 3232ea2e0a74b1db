import type { Config } from "../config";
import type { Datum } from "../intake/datum";
import { type IntakeMessage, readBodies, rowsToData } from "../intake/queue-message";
import { runDeliveryJobs } from "./fan-out";
import { settleUndelivered } from "./retry-policy";

/**
 * Consumes accepted data: groups the whole batch by metric, delivers one payload per observer of
 * each metric, and hands whatever failed to the retry path before acknowledging the batch.
 */
export async function consumeIntake(batch: MessageBatch<string>, env: Env, config: Config): Promise<void> {
  const dataByMetric = new Map<string, Datum[]>();
  for (const body of readBodies<IntakeMessage>(batch)) {
    for (const [metric, rows] of body.metrics) {
      const data = dataByMetric.get(metric);
      if (data) data.push(...rowsToData(metric, rows));
      else dataByMetric.set(metric, rowsToData(metric, rows));
    }
  }
  const jobs = [...dataByMetric].map(([metric, data]) => ({ metric, data, attempts: 0 }));
  await settleUndelivered(env, config, await runDeliveryJobs(env, config, jobs));
  batch.ackAll();
}
