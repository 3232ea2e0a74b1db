import { DurableObject } from "cloudflare:workers";
import { packBatches } from "../../shared/bounded-batches";
import { migrateSchema } from "../../worker/common/sql-migrations";
import { envelopeContentType, type JournalEnvelope } from "./journal-envelope";

/** A journaled message: its entry id, and the Worker's body. */
export interface JournalEntry {
  id: string;
  body: Uint8Array;
}

/** Entries a replay reads and sends at a time, so that a large journal is not held in memory whole. */
const replayPageEntries = 200;
/** The queue's limits on one sendBatch call, with room for the envelopes. */
const sendBatchLimits = {
  maxItems: 100,
  maxSize: 250_000,
  sizeOf: (envelope: JournalEnvelope) => envelope.body.length,
};

const schemaSteps = ["CREATE TABLE journal_entry (id TEXT PRIMARY KEY, body BLOB NOT NULL)"];

/**
 * One shard of the intake journal: the intake messages sent to the local queue and not consumed
 * yet. The local queue is held in memory: every message is written here in the same step that
 * sends it, and its entry is cleared once a consumer acknowledged it, so that what a crash left
 * here is what was accepted and not consumed. Replaying it sends those messages again (duplicates
 * at worst, which at-least-once allows).
 */
export class IntakeJournal extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrateSchema(ctx.storage, schemaSteps);
  }

  /** Keeps the entries of one send, all or none. */
  write(entries: JournalEntry[]): void {
    this.ctx.storage.transactionSync(() => {
      for (const { id, body } of entries) {
        this.ctx.storage.sql.exec("INSERT INTO journal_entry (id, body) VALUES (?, ?)", id, body);
      }
    });
  }

  /** Forgets consumed entries; an id not (or no longer) here is ignored. */
  clear(ids: string[]): void {
    this.ctx.storage.transactionSync(() => {
      for (const id of ids) this.ctx.storage.sql.exec("DELETE FROM journal_entry WHERE id = ?", id);
    });
  }

  /** How many entries wait here. */
  size(): number {
    return this.ctx.storage.sql.exec<{ count: number }>("SELECT count(*) AS count FROM journal_entry").one().count;
  }

  /**
   * Sends every entry that was here when the replay began to the queue again, in the order written,
   * each in its envelope naming this shard (`shard`, the journal client's number for it), and keeps
   * them until their consumer clears them. Entries written meanwhile went to the queue with their
   * own send. Resolves with the number of messages sent.
   */
  async replay(shard: number): Promise<number> {
    const sql = this.ctx.storage.sql;
    const last = sql.exec<{ last: number | null }>("SELECT max(rowid) AS last FROM journal_entry").one().last ?? 0;
    let after = 0;
    let sent = 0;
    while (after < last) {
      const page = sql
        .exec<{ position: number; id: string; body: ArrayBuffer }>(
          "SELECT rowid AS position, id, body FROM journal_entry WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?",
          after,
          last,
          replayPageEntries,
        )
        .toArray();
      if (page.length === 0) break;
      const envelopes = page.map(
        ({ id, body }): JournalEnvelope => ({ journalEntry: [shard, id], body: new Uint8Array(body) }),
      );
      for (const { items } of packBatches(envelopes, sendBatchLimits)) {
        await this.env.INTAKE_QUEUE.sendBatch(items.map((body) => ({ body, contentType: envelopeContentType })));
      }
      sent += envelopes.length;
      after = page.at(-1)!.position;
    }
    return sent;
  }
}
