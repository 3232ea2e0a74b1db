import { rdfJsonBody } from "../../../tools/testing/monitoring-data.ts";

/** Distinct RDF/JSON bodies for POST /monitoringdata of `size` data each for metric `metric`. */
export function rdfJsonBodies(count: number, size: number, metric: string): string[] {
  const timestamp = Date.now();
  return Array.from({ length: count }, (_, request) =>
    JSON.stringify(
      rdfJsonBody(
        Array.from({ length: size }, (_, index) => ({
          id: `r${request}-${index}`,
          metric,
          timestamp: timestamp + index,
          value: Math.random(),
          resourceId: `vm${index % 50}`,
        })),
      ),
    ),
  );
}
