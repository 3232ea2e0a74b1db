import { remoteWriteBodies, remoteWriteSamples } from "../../../../bench/load/requests/agent-batches";
import { benchPerDatum } from "../../../../bench/parsers/per-datum-bench";
import { decodeSnappyBlock } from "./snappy";
import { readWriteRequest } from "./write-request";

/* The WriteRequest reader on Prometheus's remote write requests (decompressed): 2,000 single-sample series each. */

const maxBytes = 64 * 2 ** 20;
const maxPoints = 1_000_000;

benchPerDatum(
  "remote write, WriteRequest reader",
  remoteWriteBodies(8).map((body) => decodeSnappyBlock(body, maxBytes)),
  remoteWriteSamples,
  (request) => readWriteRequest(request, maxPoints),
  (result) => result.points,
);
