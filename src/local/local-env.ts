import type { DurableObject } from "cloudflare:workers";
import { getOrCreate } from "../worker/common/get-or-create";
import type { IntakeJournal } from "./journal/intake-journal";
import { journaledQueue } from "./journal/journaled-queue";

/** The bindings the local launchers add to the deployed Worker's. */
export interface LocalEnv extends Env {
  /** The intake journal's shards (journal/). */
  INTAKE_JOURNAL_SHARD: DurableObjectNamespace<IntakeJournal>;
  /** The token of the launcher's control routes (local-control.ts); without it they do not exist. */
  LOCAL_CONTROL_TOKEN?: string;
}

const localEnvs = new WeakMap<LocalEnv, Env>();

/**
 * `env` as the Worker's code and its Durable Objects see it locally: its intake queue journaled. The
 * same object for the same `env`, so that what the Worker keeps per env or per queue binding (its
 * settings, its intake sender) is kept once.
 */
export function localEnv(env: LocalEnv): Env {
  return getOrCreate(localEnvs, env, () => ({ ...env, INTAKE_QUEUE: journaledQueue(env) }));
}

type DurableObjectClass = new (ctx: DurableObjectState, env: Env) => DurableObject<Env>;

/**
 * A Durable Object class of the Worker as the local entry exports it: a subclass, exported under
 * the same name (by which the runtime finds it and keeps its storage), constructed with the local env.
 */
export function constructedWithLocalEnv<C extends DurableObjectClass>(deployed: C): C {
  const Deployed: DurableObjectClass = deployed;
  class Local extends Deployed {
    constructor(ctx: DurableObjectState, env: LocalEnv) {
      super(ctx, localEnv(env));
    }
  }
  return Local as C;
}
