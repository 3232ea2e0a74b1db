/** Counts work under way, so that a shutdown can wait until none is left. */
export class InFlight {
  private count = 0;
  private readonly settledWaiters = new Set<() => void>();

  begin(): void {
    this.count += 1;
  }

  /** Ends what one `begin` started. */
  end(): void {
    this.count -= 1;
    if (this.count === 0) for (const waiter of [...this.settledWaiters]) waiter();
  }

  /** Resolves true once nothing is under way, or false when `timeoutMs` passed first. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.settledWaiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.settledWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.settledWaiters.add(done);
    });
  }
}
