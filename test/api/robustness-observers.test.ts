import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { checkFuzzedWrites, fuzzBodies, fuzzTimeoutMs, type Json, runMarker, sendFuzzBody } from "./support/fuzz";
import { declareMetric, listObservers } from "./support/metrics";

const metric = "fuzzed";

/** Valid registrations of every protocol; each address is the run's own, so each run may add an observer. */
const validRegistrations: Json[] = [
  { callbackUrl: `https://receiver.example/hook${runMarker}` },
  { format: "TOWER/JSON", callbackUrl: `http://10.0.0.1:8080/${runMarker}`, secret: "a-secret-of-24-characters" },
  { format: "GRAPHITE", protocol: "TCP", observerHost: `relay${runMarker}.example`, observerPort: 2003 },
  { format: "influxdb", protocol: "udp", observerHost: "192.168.0.9", observerPort: 8089 },
];

/** The metric the observers are registered with: the declared one mostly, sometimes any string. */
const metricSegment = fc.oneof(
  { weight: 4, arbitrary: fc.constant(metric) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }).map((name) => encodeURIComponent(name)) },
);

beforeAll(async () => {
  await declareMetric(metric);
});

describe("observer registration under random and mutated bodies", () => {
  it(
    "answers a success or a problem, and a problem leaves the observers as they were",
    async () => {
      await checkFuzzedWrites({
        bodies: fc
          .tuple(fuzzBodies(validRegistrations), metricSegment)
          .map(([body, segment]) => ({ ...body, segment })),
        send: (body) => sendFuzzBody("POST", `/metrics/${body.segment}/observers`, body),
        readState: () => listObservers(metric),
      });
    },
    fuzzTimeoutMs,
  );
});
