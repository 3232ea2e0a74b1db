import { DurableObject } from "cloudflare:workers";
import type { FieldProblem } from "../../shared/problems";
import { OneAtATime } from "../common/one-at-a-time";
import { migrateSchema, type SchemaSteps } from "../common/sql-migrations";
import { countingRequests } from "../common/usage";
import { knowledgeBase } from "../model/knowledge-base";
import { tellRulesTheModelChanged } from "../model/model-changed";
import { type CollectorRecord, CollectorStore, collectorSchema, expiryOf } from "./collector-store";
import type { Descriptor } from "./descriptor-schema";

/** The registry's schema steps, numbered from 1 in this order. */
const schemaSteps: SchemaSteps = [collectorSchema];

export type Registration = { ok: true } | { ok: false; problems: FieldProblem[] };

/**
 * The registered data collectors (one instance, off the data path). Registrations are durable, so
 * a restart keeps them. Each collector's resources are merged into the knowledge base when it
 * registers, written back there when it is heard from after they were deleted, and released when
 * it is removed or expires; an alarm set to the next expiry removes the collectors gone silent.
 * Changes run one at a time, because they wait on the knowledge base: an expiry must not interleave
 * with the keep-alive of the collector it removes.
 */
export class CollectorRegistry extends DurableObject<Env> {
  private readonly store: CollectorStore;
  private readonly changes = new OneAtATime();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateSchema(ctx.storage, schemaSteps);
    this.store = new CollectorStore(ctx.storage.sql);
  }

  /**
   * Registers the collector under `id` (a new one, or replacing the registration of that id) and
   * merges its resources into the model; on problems, located in the description, nothing changes.
   */
  register(id: string, descriptor: Descriptor): Promise<Registration> {
    return this.changes.run(async () => {
      await this.expireDue();
      const located = descriptor.resources.map((resource, index) => ({ at: `/resources/${index}`, resource }));
      const merged = await knowledgeBase(this.env).mergeCollectorResources(id, located);
      if (!merged.ok) return merged;
      this.store.put(id, descriptor, Date.now());
      await this.scheduleExpiry();
      await tellRulesTheModelChanged(this.env);
      return { ok: true };
    });
  }

  /** The live collectors, by id. */
  list(): CollectorRecord[] {
    const now = Date.now();
    return this.store.list().filter((collector) => isLive(collector, now));
  }

  /** The live collector of that id, or null. */
  get(id: string): CollectorRecord | null {
    const collector = this.store.get(id);
    return collector && isLive(collector, Date.now()) ? collector : null;
  }

  /**
   * A keep-alive (or a configuration request) of the collector: it stays registered for another
   * keep-alive period, and its resources deleted from the model come back. Null if it is not
   * registered (or has expired): the original's collectors then register again.
   */
  heardFrom(id: string): Promise<CollectorRecord | null> {
    return this.changes.run(async () => {
      await this.expireDue();
      const collector = this.store.get(id);
      if (!collector) return null;
      const now = Date.now();
      this.store.heard(id, now);
      await this.scheduleExpiry();
      const { restored } = await knowledgeBase(this.env).restoreCollectorResources(id, collector.descriptor.resources);
      if (restored.length > 0) await tellRulesTheModelChanged(this.env);
      return { ...collector, lastHeardAt: now };
    });
  }

  /** Removes the collector, releasing its resources; false if it was not registered. */
  remove(id: string): Promise<boolean> {
    return this.changes.run(async () => {
      await this.expireDue();
      if (!this.store.get(id)) return false;
      await this.release([id]);
      await this.scheduleExpiry();
      return true;
    });
  }

  override async alarm(): Promise<void> {
    await this.changes.run(async () => {
      await this.expireDue();
      await this.scheduleExpiry();
    });
  }

  /** Removes the collectors whose keep-alive ran out, even before the alarm came. */
  private async expireDue(): Promise<void> {
    const expired = this.store.expired(Date.now());
    if (expired.length > 0) await this.release(expired);
  }

  /**
   * The model forgets the collectors first: should that fail, their registrations stay, and the
   * next alarm or request tries again.
   */
  private async release(ids: readonly string[]): Promise<void> {
    const { removed } = await knowledgeBase(this.env).releaseCollectorResources([...ids]);
    this.store.delete(ids);
    if (removed.length > 0) await tellRulesTheModelChanged(this.env);
  }

  private async scheduleExpiry(): Promise<void> {
    const next = this.store.nextExpiry();
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }
}

function isLive(collector: CollectorRecord, now: number): boolean {
  const expiry = expiryOf(collector);
  return expiry === null || now < expiry;
}

/** The one collector registry of the service. */
export function collectorRegistry(env: Env): DurableObjectStub<CollectorRegistry> {
  return countingRequests(env.COLLECTOR_REGISTRY.getByName("collectors"), "COLLECTOR_REGISTRY");
}
