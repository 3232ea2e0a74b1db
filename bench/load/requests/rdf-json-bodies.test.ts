import { expect, it } from "vitest";
import { rdfJsonBodies } from "./rdf-json-bodies.ts";

it("builds distinct RDF/JSON bodies of as many data as asked, each of the metric", () => {
  const [first, second] = rdfJsonBodies(2, 3, "m").map((body) => JSON.parse(body) as Record<string, unknown>);
  expect(Object.keys(first!)).toHaveLength(3);
  expect(Object.keys(second!)).toHaveLength(3);
  expect(Object.keys(first!).filter((id) => id in second!)).toEqual([]);
  expect(JSON.stringify(first)).toContain('"m"');
});
