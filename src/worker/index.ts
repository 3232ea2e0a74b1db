import { createApp } from "./app";

export { KnowledgeBase } from "./durable-objects/knowledge-base";
export { MetricCatalog } from "./durable-objects/metric-catalog";
export { MetricObject } from "./durable-objects/metric";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
