import worker, * as deployed from "../worker/index";
import { consumingBatch, servingRequest } from "./drain";
import { collectGarbageNowAndThen } from "./garbage-collection";
import { consumeJournaled } from "./journal/journaled-batch";
import { localControlAnswer } from "./local-control";
import { constructedWithLocalEnv, type LocalEnv, localEnv } from "./local-env";

/*
 * The Worker as the local launchers run it (`npm start`, `npm run dev`), and only they bundle this
 * module: the deployed Worker (src/worker/index.ts) wrapped with what a local run needs and a
 * deployment does not. The local queue is held in memory, so every send to it is journaled on disk
 * until consumed (journal/); the launcher stops the service gracefully by draining it and replays
 * the journal at start (local-control.ts, drain.ts); and the isolate collects its garbage now and
 * then (garbage-collection.ts).
 */

export { IntakeJournal } from "./journal/intake-journal";

// Every Durable Object class of the Worker, constructed with the local env: their sends to the
// intake queue are journaled too (a rule's output, an observer's disabled event).
export const CollectorRegistry = constructedWithLocalEnv(deployed.CollectorRegistry);
export const KnowledgeBase = constructedWithLocalEnv(deployed.KnowledgeBase);
export const MetricCatalog = constructedWithLocalEnv(deployed.MetricCatalog);
export const MetricObject = constructedWithLocalEnv(deployed.MetricObject);
export const RuleObject = constructedWithLocalEnv(deployed.RuleObject);
export const RuleRegistry = constructedWithLocalEnv(deployed.RuleRegistry);
export const SelectorObserverObject = constructedWithLocalEnv(deployed.SelectorObserverObject);
export const SummaryShard = constructedWithLocalEnv(deployed.SummaryShard);

export default {
  async fetch(request, env, context) {
    collectGarbageNowAndThen();
    const control = await localControlAnswer(request, env);
    if (control !== undefined) return control;
    return servingRequest(request, async () => worker.fetch(request, localEnv(env), context));
  },
  async queue(batch, env) {
    collectGarbageNowAndThen();
    await consumingBatch(() => consumeJournaled(env, batch, (unwrapped) => worker.queue(unwrapped, localEnv(env))));
  },
} satisfies ExportedHandler<LocalEnv>;
