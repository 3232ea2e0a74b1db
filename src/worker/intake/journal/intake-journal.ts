import { DurableObject } from "cloudflare:workers";
import { type EncodedMessage, sendMessages } from "../queue-message";

/** A journaled message: its entry id, and its body as sent (journal reference included). */
export interface JournalEntry {
  id: string;
  body: Uint8Array;
}

/** Entries a replay reads and sends at a time, so that a large journal is not held in memory whole. */
const replayPageEntries = 200;

/**
 * One shard of the intake journal: the intake messages sent to the queue and not consumed yet.
 * Used where the queue does not keep what a send put on it across a crash (the local queue, held in
 * memory): every message is written here in the same step that sends it, and its entry is cleared
 * once a consumer acknowledged it, so that what a crash left here is what was accepted and not
 * consumed. Replaying it sends those messages again (duplicates at worst, which at-least-once allows).
 */
export class IntakeJournal extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.transactionSync(() => {
      const sql = ctx.storage.sql;
      sql.exec("CREATE TABLE IF NOT EXISTS message (id TEXT PRIMARY KEY, body BLOB NOT NULL)");
      // A journal written when messages were JSON texts: its entries move here as they are.
      const before = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'entry'").toArray();
      if (before.length === 0) return;
      sql.exec("INSERT INTO message (id, body) SELECT id, text FROM entry ORDER BY rowid");
      sql.exec("DROP TABLE entry");
    });
  }

  /** Keeps the entries of one send, all or none. */
  write(entries: JournalEntry[]): void {
    this.ctx.storage.transactionSync(() => {
      for (const { id, body } of entries) {
        this.ctx.storage.sql.exec("INSERT INTO message (id, body) VALUES (?, ?)", id, body);
      }
    });
  }

  /** Forgets consumed entries; an id not (or no longer) here is ignored. */
  clear(ids: string[]): void {
    this.ctx.storage.transactionSync(() => {
      for (const id of ids) this.ctx.storage.sql.exec("DELETE FROM message WHERE id = ?", id);
    });
  }

  /** How many entries wait here. */
  size(): number {
    return this.ctx.storage.sql.exec<{ count: number }>("SELECT count(*) AS count FROM message").one().count;
  }

  /**
   * Sends every entry that was here when the replay began to the queue again, in the order written,
   * and keeps them until their consumer clears them. Entries written meanwhile went to the queue
   * with their own send. Resolves with the number of messages sent.
   */
  async replay(): Promise<number> {
    const sql = this.ctx.storage.sql;
    const last = sql.exec<{ last: number | null }>("SELECT max(rowid) AS last FROM message").one().last ?? 0;
    let after = 0;
    let sent = 0;
    while (after < last) {
      const page = sql
        .exec<{ position: number; body: ArrayBuffer | string }>(
          "SELECT rowid AS position, body FROM message WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?",
          after,
          last,
          replayPageEntries,
        )
        .toArray();
      if (page.length === 0) break;
      const messages: EncodedMessage[] = page.map(({ body }) =>
        typeof body === "string" ? body : new Uint8Array(body),
      );
      await sendMessages(this.env.INTAKE_QUEUE, messages);
      sent += messages.length;
      after = page.at(-1)!.position;
    }
    return sent;
  }
}
