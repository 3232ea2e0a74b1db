import { remoteWriteBodies, remoteWriteSamples } from "../../../../bench/load/requests/agent-batches";
import { benchPerDatum } from "../../../../bench/parsers/per-datum-bench";
import { decodeSnappyBlock } from "./snappy";
import { readWriteRequest } from "./write-request";

/* The snappy block decoder on Prometheus's remote write bodies: 2,000 single-sample series each. */

const maxBytes = 64 * 2 ** 20;
const maxPoints = 1_000_000;

benchPerDatum(
  "snappy, remote write bodies",
  remoteWriteBodies(8),
  remoteWriteSamples,
  (body) => decodeSnappyBlock(body, maxBytes),
  (decoded) => readWriteRequest(decoded, maxPoints).points,
);
