import { it } from "vitest";
import { request } from "./support/resources";
import { declareMetric } from "./support/metrics";
const ns = "http://www.modaclouds.eu/rdfs/1.0/monitoringdata#";
const datum = (extra: string) => `{"${ns}metric":[{"type":"literal","value":"m1"${extra}}],"${ns}timestamp":[{"type":"literal","value":"1","datatype":"http://www.w3.org/2001/XMLSchema#integer"}],"${ns}value":[{"type":"literal","value":"1","datatype":"http://www.w3.org/2001/XMLSchema#double"}],"${ns}resourceId":[{"type":"literal","value":"r","datatype":"http://www.w3.org/2001/XMLSchema#string"}]}`;
it("debug", async () => {
  await declareMetric("m");
  const cases: [string, string, string][] = [
    ["POST", "/metrics/m/observers", '{"callbackUrl":"https://a.example/","__proto__":{"secret":"x"}}'],
    ["POST", "/metrics/m/observers", '{"__proto__":{"callbackUrl":"https://a.example/"}}'],
    ["PUT", "/resources", '{"__proto__":{"x":1}}'],
    ["PUT", "/resources", '{"cloudProviders":[{"id":"p","type":"t","__proto__":{"x":1}}]}'],
    ["PUT", "/resources", '[{"clazz":"CloudProvider","id":"p","type":"t","__proto__":{"x":1}}]'],
    ["PUT", "/resources", '[{"clazz":"CloudProvider","id":"__proto__","type":"t"}]'],
    ["POST", "/monitoringdata", `{"__proto__":${datum("")}}`],
    ["POST", "/monitoringdata", `{"d1":${datum(',"__proto__":{"x":1}')}}`],
    ["POST", "/monitoringdata", `{"d1":${datum("")}, "d2": {"__proto__": {}}}`],
    ["PUT", "/metrics/__proto__", '{"__proto__":{"unit":"x"}}'],
  ];
  for (const [method, path, body] of cases) {
    const r = await request(method, path, { body, headers: { "content-type": "application/json" } });
    console.log(method, path, body.slice(0, 80), "=>", r.status, (await r.text()).slice(0, 300));
  }
  console.log(await (await request("GET", "/resources")).text(), await (await request("GET", "/metrics")).text());
}, 60_000);
