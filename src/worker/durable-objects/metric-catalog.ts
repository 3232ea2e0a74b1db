import { DurableObject } from "cloudflare:workers";

export class MetricCatalog extends DurableObject<Env> {}
