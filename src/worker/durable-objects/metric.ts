import { DurableObject } from "cloudflare:workers";

export class MetricObject extends DurableObject<Env> {}
