/**
 * Runs async work one piece at a time, in the order it was asked for, each piece starting once the
 * previous one settled (whether it succeeded or not). A Durable Object's input gate lets other
 * requests in while one awaits another object; work that must not interleave goes through this.
 */
export class OneAtATime {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
