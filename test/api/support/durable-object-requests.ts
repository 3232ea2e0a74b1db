import { usage } from "../../../src/worker/common/usage";

/** What `work` returns, and the Durable Object requests the Worker made meanwhile. */
export async function counting<T>(work: () => Promise<T>): Promise<{ value: T; requests: number }> {
  const before = usage.durableObjectRequests;
  const value = await work();
  return { value, requests: usage.durableObjectRequests - before };
}
