/** The batch whose direct deliveries are under way, and how to end its turn. */
interface Turn {
  number: number;
  over: Promise<void>;
  end(): void;
}

/**
 * Consumer batches take turns at delivering directly to a metric's observers: a batch is given its
 * plan only once the batch before has recorded what became of its deliveries. Batches may be
 * consumed at the same time (the platform scales consumers out; the local queue starts a second
 * batch once a full one waits); a later batch planned while an earlier one's payload to an
 * observer is still unanswered would deliver its newer data directly, while the earlier payload,
 * if the observer does not take it, goes to the backlog behind them. Waiting for the turn keeps
 * each observer's data in the order they were accepted; as a batch stops waiting for any observer
 * soon (see answer-wait.ts), a turn is short. A turn not handed back (its consumer died) ends with
 * its lease, and its messages come again.
 */
export class BatchTurns {
  private given = 0;
  private current: Turn | undefined;

  /** Waits until no other batch has the turn, then gives it, for at most `leaseMs`. */
  async take(leaseMs: number): Promise<number> {
    while (this.current) await this.current.over;
    const number = ++this.given;
    let end = () => {};
    const over = new Promise<void>((resolve) => {
      end = resolve;
    });
    const lease = setTimeout(() => this.handBack(number), leaseMs);
    this.current = {
      number,
      over,
      end: () => {
        clearTimeout(lease);
        end();
      },
    };
    return number;
  }

  /** Ends the turn `number`; a turn that already ended (its lease ran out) is left alone. */
  handBack(number: number): void {
    if (this.current?.number !== number) return;
    const { end } = this.current;
    this.current = undefined;
    end();
  }
}
