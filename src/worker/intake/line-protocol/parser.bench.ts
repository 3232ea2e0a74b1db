import {
  telegrafBatchLines,
  telegrafCpuBodies,
  telegrafCpuFields,
} from "../../../../bench/load/requests/agent-batches";
import { benchPerDatum } from "../../../../bench/parsers/per-datum-bench";
import { parseLineProtocol } from "./parser";

/* The line-protocol parser on Telegraf's cpu batches: 1,000 lines of 10 fields, each field a datum. */

const maxPoints = 1_000_000;

benchPerDatum(
  "line protocol, Telegraf cpu batches",
  telegrafCpuBodies(8),
  telegrafBatchLines * telegrafCpuFields.length,
  (body) => parseLineProtocol(body, "ns", Date.now(), maxPoints),
  (result) => result.points,
);
