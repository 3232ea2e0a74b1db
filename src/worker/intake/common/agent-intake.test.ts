import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../shared/problems";
import { usage } from "../../common/usage";
import { readConfig } from "../../config";
import type { AppEnv } from "../../http/app-env";
import type { Datum } from "../../vocabulary/datum";
import { rowsToData } from "../queue-message";
import { readIntakeMessage } from "../queue-message-bytes";
import { type AgentReading, acceptReading, agentHandler, describeRefusals, type ErrorAnswer } from "./agent-intake";
import type { LabelledPoints } from "./series";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("describeRefusals", () => {
  const refusal = (origin: number) => ({ origin, message: `bad ${origin}` });

  it("names each refusal by what and where", () => {
    expect(describeRefusals([refusal(2), refusal(7)], 2, "line")).toBe("line 2: bad 2; line 7: bad 7");
  });

  it("gives the messages alone without what", () => {
    expect(describeRefusals([refusal(2), refusal(7)], 2)).toBe("bad 2; bad 7");
  });

  it("counts the refusals it does not describe", () => {
    expect(describeRefusals([refusal(1)], 4, "series")).toBe("series 1: bad 1 (and 3 more)");
  });

  it("names the first ten and counts the rest", () => {
    const refused = Array.from({ length: 12 }, (_, index) => refusal(index + 1));
    const named = Array.from({ length: 10 }, (_, index) => `line ${index + 1}: bad ${index + 1}`).join("; ");
    expect(describeRefusals(refused, 12, "line")).toBe(`${named} (and 2 more)`);
    expect(describeRefusals(refused, 50, "line")).toBe(`${named} (and 40 more)`);
  });

  it("is empty for no refusal", () => {
    expect(describeRefusals([], 0, "line")).toBe("");
  });
});

/** The protocol's error shape of these tests: the error's code and message, with its status and headers. */
const answerError: ErrorAnswer = (error) =>
  Response.json({ code: error.code, message: error.message }, { status: error.status, headers: error.headers });

async function answerOf(response: Response) {
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() };
}

describe("agentHandler", () => {
  const handled = (work: () => Promise<Response>) =>
    new Hono<AppEnv>().post("/", agentHandler(answerError, work)).request("/", { method: "POST" });

  it("answers what the work answers", async () => {
    const response = await handled(async () => new Response(null, { status: 204 }));
    expect(response.status).toBe(204);
  });

  it("answers an ApiError in the protocol's shape, with its status and headers", async () => {
    const response = await handled(async () => {
      throw new ApiError("payload-too-large", "too many", { headers: { "x-limit": "5" } });
    });
    expect(response.headers.get("x-limit")).toBe("5");
    expect(await answerOf(response)).toEqual({
      status: 413,
      retryAfter: null,
      body: JSON.stringify({ code: "payload-too-large", message: "too many" }),
    });
  });

  it.each([
    ["an Error", new Error("storage exploded")],
    ["a thrown string", "no reason"],
  ])("answers a failure that is %s with 503 and Retry-After, never 500", async (_, failure) => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await handled(async () => {
      throw failure;
    });
    expect(await answerOf(response)).toEqual({
      status: 503,
      retryAfter: "5",
      body: JSON.stringify({ code: "unavailable", message: "The request could not be handled; resend it." }),
    });
    expect(logged).toHaveBeenCalledTimes(1);
  });
});

describe("acceptReading", () => {
  /** A queue that keeps the data sent to it. */
  function recordingQueue() {
    const queued: Datum[] = [];
    const record = (body: unknown) => {
      for (const [metric, rows] of readIntakeMessage(body).metrics) {
        queued.push(...rowsToData(metric, rows));
      }
    };
    const metrics = { backlogCount: 0, backlogBytes: 0 };
    const queue = {
      send: async (body: unknown) => {
        record(body);
        return { metadata: { metrics } };
      },
      sendBatch: async (messages: Iterable<MessageSendRequest>) => {
        for (const message of messages) record(message.body);
        return { metadata: { metrics } };
      },
      metrics: async () => metrics,
    } satisfies Queue;
    return { queue, queued };
  }

  /** Accepts `reading` through the /write route's counts; answers the outcome as JSON. */
  async function accept(reading: AgentReading, query = "") {
    const { queue, queued } = recordingQueue();
    const app = new Hono<AppEnv>()
      .use(async (c, next) => {
        c.set("config", { ...readConfig(env), MAX_AGENT_DATA_PER_REQUEST: 7 });
        await next();
      })
      .post(
        "/",
        agentHandler(answerError, async (c) => c.json(await acceptReading(c, "/write", reading, ["host"]))),
      );
    const response = await app.fetch(
      new Request(`http://service/${query}`, { method: "POST" }),
      { ...env, INTAKE_QUEUE: queue },
      createExecutionContext(),
    );
    return { response, queued };
  }

  const series = (metric: string, labels: [string, string][], origin = 1): LabelledPoints => ({
    labels,
    origin,
    points: [{ metric, value: 1, timestamp: 1_700_000_000_000 }],
  });

  const countsOfWrite = () => ({ ...usage.intake["/write"], total: usage.dataAccepted });

  it("refuses a reading past MAX_AGENT_DATA_PER_REQUEST whole with 413, queueing nothing", async () => {
    const before = countsOfWrite();
    const { response, queued } = await accept({ series: [series("accept.many", [])], refused: [], tooMany: true });
    expect(await answerOf(response)).toEqual({
      status: 413,
      retryAfter: null,
      body: JSON.stringify({
        code: "payload-too-large",
        message: "The request holds more than MAX_AGENT_DATA_PER_REQUEST (7) data; send smaller batches.",
      }),
    });
    expect(queued).toEqual([]);
    expect(countsOfWrite()).toEqual(before);
  });

  it("queues the data, and answers and counts what was accepted, refused and skipped", async () => {
    const before = countsOfWrite();
    const { response, queued } = await accept({
      series: [
        series(
          "accept.ok",
          [
            ["host", "vm1"],
            ["cpu", "cpu0"],
          ],
          1,
        ),
        series("accept/bad", [], 3),
      ],
      refused: [{ origin: 2, message: "unparsable" }],
      refusedTotal: 4,
      tooMany: false,
      stringFieldsSkipped: 2,
      staleMarkers: 1,
    });
    expect(await response.json()).toEqual({
      accepted: 1,
      refused: [
        { origin: 2, message: "unparsable" },
        { origin: 3, message: '"accept/bad": metric name must not contain "/"' },
      ],
      refusedTotal: 5,
    });
    expect(queued.map(({ metric, resourceId }) => ({ metric, resourceId }))).toEqual([
      { metric: "accept.ok", resourceId: "vm1,cpu=cpu0" },
    ]);
    expect(countsOfWrite()).toEqual({
      dataAccepted: before.dataAccepted + 1,
      refused: before.refused + 5,
      stringFieldsSkipped: before.stringFieldsSkipped + 2,
      staleMarkersSkipped: before.staleMarkersSkipped + 1,
      total: before.total + 1,
    });
  });

  it("keys the series by the request's resource= and drop=", async () => {
    const labels: [string, string][] = [
      ["host", "vm1"],
      ["zone", "z1"],
      ["pid", "42"],
    ];
    const { queued } = await accept(
      { series: [series("accept.keyed", labels)], refused: [], tooMany: false },
      "?resource=%20missing,zone&drop=pid,",
    );
    expect(queued.map((datum) => datum.resourceId)).toEqual(["z1,host=vm1"]);
  });

  it("accepts an empty reading without a queue send", async () => {
    const { response, queued } = await accept({ series: [], refused: [], tooMany: false });
    expect(await response.json()).toEqual({ accepted: 0, refused: [], refusedTotal: 0 });
    expect(queued).toEqual([]);
  });
});
