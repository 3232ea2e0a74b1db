import { describe, it } from "vitest";
import { checkFuzzedWrites, fuzzBodies, fuzzTimeoutMs, type Json, runMarker, sendFuzzBody } from "./support/fuzz";
import { readModel } from "./support/resources";

const id = (name: string) => `${name}${runMarker}`;

/** Valid uploads in both forms; every id is the run's own, so a leftover of one run is visible. */
const validModels: Json[] = [
  {
    cloudProviders: [{ id: id("amazon"), type: "IaaS" }],
    vMs: [{ id: id("frontend"), type: "Frontend", cloudProvider: id("amazon"), numberOfCPUs: 2 }],
    methods: [{ id: id("register"), type: "register" }],
    internalComponents: [
      { id: id("mic"), type: "Mic", providedMethods: [id("register")], requiredComponents: [id("frontend")] },
    ],
  },
  [
    { clazz: "InternalComponent", id: id("mic"), type: "Mic", providedMethods: [id("save")], requiredComponents: [] },
    { clazz: "Method", id: id("save"), type: "saveAnswers" },
    { clazz: "VM", id: id("backend"), type: "Backend", cloudProvider: id("azure"), numberOfCPUs: 4 },
    { clazz: "CloudProvider", id: id("azure"), type: "IaaS" },
  ],
  {
    cloudProviders: [{ id: id("gcp"), type: "IaaS" }],
    locations: [{ id: id("eu"), type: "Region" }],
    vMs: [{ id: id("worker"), type: "Worker", cloudProvider: id("gcp"), location: id("eu"), numberOfCPUs: 1 }],
    paaSServices: [{ id: id("queue"), type: "Queue", cloudProvider: id("gcp"), location: id("eu") }],
    externalComponents: [{ id: id("cdn"), type: "CDN" }],
    components: [{ id: id("legacy"), type: "Mainframe" }],
    internalComponents: [
      { id: id("app"), type: "App", providedMethods: [], requiredComponents: [id("queue"), id("cdn"), id("legacy")] },
    ],
    nodes: [{ id: id("blade"), type: "Blade", vms: [id("worker")] }],
    clusters: [{ id: id("hpc"), type: "HPC", nodes: [id("blade")] }],
    racks: [{ id: id("rack"), type: "Rack42", nodes: [id("blade")] }],
  },
];

describe("the model routes under random and mutated bodies", () => {
  it.each(["PUT", "POST"])(
    "%s /resources answers a success or a problem, and a problem leaves the model as it was",
    async (method) => {
      await checkFuzzedWrites({
        bodies: fuzzBodies(validModels),
        send: (body) => sendFuzzBody(method, "/resources", body),
        readState: () => readModel(),
      });
    },
    fuzzTimeoutMs,
  );
});
