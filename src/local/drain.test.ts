import { describe, expect, it } from "vitest";
import {
  consumingBatch,
  drainProgress,
  intakeMessagesAcknowledged,
  intakeMessagesWritten,
  servingRequest,
  startDraining,
} from "./drain";

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const answered = () => new Response(null, { status: 204 });
const post = new Request("http://tower.example/monitoringdata", { method: "POST" });

describe("drain", () => {
  it("counts the batches under way, also one that fails", async () => {
    const { opened, open } = gate();
    const first = consumingBatch(() => opened);
    const second = consumingBatch(() => Promise.reject(new Error("consumer failed")));
    expect(drainProgress().batchesInFlight).toBe(2);
    await expect(second).rejects.toThrow("consumer failed");
    expect(drainProgress().batchesInFlight).toBe(1);
    open();
    await first;
    expect(drainProgress().batchesInFlight).toBe(0);
  });

  it("waits for the intake messages written and not acknowledged", () => {
    const before = drainProgress().intakeMessagesInFlight;
    intakeMessagesWritten(3);
    intakeMessagesAcknowledged(1);
    expect(drainProgress().intakeMessagesInFlight).toBe(before + 2);
    intakeMessagesAcknowledged(2);
    expect(drainProgress().intakeMessagesInFlight).toBe(before);
  });

  it("counts a request that may write until it is answered, and not one that reads", async () => {
    const { opened, open } = gate();
    const writing = servingRequest(post, () => opened.then(answered));
    expect(drainProgress().requestsInFlight).toBe(1);
    const { opened: readOpened, open: openRead } = gate();
    const reading = servingRequest(new Request("http://tower.example/metrics"), () => readOpened.then(answered));
    expect(drainProgress().requestsInFlight).toBe(1);
    open();
    openRead();
    expect((await writing).status).toBe(204);
    expect((await reading).status).toBe(204);
    expect(drainProgress().requestsInFlight).toBe(0);
  });

  // Last: draining never ends in an isolate.
  it("once told to drain, refuses every request that may write with 503 and Retry-After, and still serves reads", async () => {
    expect(drainProgress().draining).toBe(false);
    startDraining();
    expect(drainProgress().draining).toBe(true);
    let served = 0;
    const serve = async () => {
      served += 1;
      return answered();
    };

    const refused = await servingRequest(post, serve);

    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(await refused.json()).toMatchObject({
      type: "urn:tower-edge:problem:unavailable",
      detail: "The service is stopping; send the request again shortly.",
    });
    expect(served).toBe(0);
    expect((await servingRequest(new Request("http://tower.example/metrics"), serve)).status).toBe(204);
    expect(drainProgress().requestsInFlight).toBe(0);
  });
});
