import { DurableObject } from "cloudflare:workers";

export class KnowledgeBase extends DurableObject<Env> {}
