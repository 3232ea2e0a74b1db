import { rdfJsonBodies } from "../../../../bench/load/requests/rdf-json-bodies";
import { benchPerDatum } from "../../../../bench/parsers/per-datum-bench";
import { scanMonitoringData } from "./rdf-json-scanner";

/* The scanner of RDF/JSON bodies of the common shape, on requests of 1,000 data as the intake section posts them. */

const dataPerBody = 1_000;
const limits = { maxData: 10_000, maxMetricNameLength: 256 };

benchPerDatum(
  "RDF/JSON scanner, 1,000-datum bodies",
  rdfJsonBodies(8, dataPerBody, "bench-scanner"),
  dataPerBody,
  (body) => scanMonitoringData(body, limits),
  (data) => data?.length ?? 0,
);
