import { describe, expect, it } from "vitest";
import { journaledQueue } from "./journal/journaled-queue";
import { localTestEnv as env } from "./journal/testing/local-test-env";
import { localEnv } from "./local-env";

describe("localEnv", () => {
  it("is the Worker's env with its intake queue journaled, the same object for the same env", () => {
    const local = localEnv(env);
    expect(local).toBe(localEnv(env));
    expect(local.INTAKE_QUEUE).toBe(journaledQueue(env));
    expect({ ...local, INTAKE_QUEUE: env.INTAKE_QUEUE }).toEqual({ ...env });
  });
});
