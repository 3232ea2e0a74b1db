import { beforeEach, describe, expect, it } from "vitest";
import { referenceModel, referenceModelStored } from "../support/model";
import { expectProblem, request } from "./support/http";
import { expectRejected, modelDetail, readModel, schemaDetail, upload } from "./support/resources";

// Every rejection is checked to leave the stored model exactly as it was (expectRejected).
beforeEach(async () => {
  await upload("PUT", referenceModel);
});

const classList =
  "CloudProvider, Method, VM, InternalComponent, Location, Component, ExternalComponent, PaaSService, Node, Cluster, Rack";
const arrayList =
  "cloudProviders, methods, vMs, internalComponents, locations, components, externalComponents, paaSServices, nodes, clusters, racks";
const componentTarget = "a Component (or a VM, an InternalComponent, an ExternalComponent or a PaaSService)";
const vm = { id: "vm9", type: "Worker", cloudProvider: "amazon", numberOfCPUs: 1 };

/** What a PUT, judged against its body alone, finds besides: the VM's provider is not in the body. */
const amazonMissing = (method: "PUT" | "POST", at: string) =>
  method === "PUT"
    ? [{ path: `${at}/cloudProvider`, message: 'No resource has the id "amazon"; expected a CloudProvider.' }]
    : [];

describe.each(["PUT", "POST"] as const)("%s /resources: the shape of the body", (method) => {
  it("rejects a body that is neither form", async () => {
    for (const body of ["model", 42, null, true]) {
      await expectRejected(method, body, schemaDetail, [
        {
          path: "",
          message:
            "Must be the model: an object of arrays (grouped form) or an array of elements that name their clazz (flat form).",
        },
      ]);
    }
  });

  it("rejects unknown top-level keys of the grouped form, each by name", async () => {
    await expectRejected(method, { vms: [vm], extra: 1, methods: [] }, schemaDetail, [
      { path: "/vms", message: `Unknown field "vms"; the arrays of the model are ${arrayList}.` },
      { path: "/extra", message: `Unknown field "extra"; the arrays of the model are ${arrayList}.` },
    ]);
  });

  it("rejects a grouped array that is not an array, or holds something else than objects", async () => {
    await expectRejected(method, { methods: { id: "m", type: "op" }, cloudProviders: ["amazon"] }, schemaDetail, [
      { path: "/cloudProviders/0", message: "Must be a CloudProvider: an object with the fields id, type." },
      { path: "/methods", message: "Must be an array of Method elements." },
    ]);
  });

  it("rejects fields of another class and unknown fields in the grouped form", async () => {
    await expectRejected(
      method,
      { vMs: [{ ...vm, providedMethods: [] }], methods: [{ id: "m", type: "op", name: "x" }] },
      schemaDetail,
      [
        { path: "/methods/0/name", message: 'Unknown field "name"; the fields of a Method are id, type.' },
        {
          path: "/vMs/0/providedMethods",
          message: 'Field "providedMethods" is not allowed on a VM; it belongs to InternalComponent.',
        },
        ...amazonMissing(method, "/vMs/0"),
      ],
    );
  });

  it("rejects a grouped element whose clazz is not its array's class", async () => {
    await expectRejected(method, { vMs: [{ ...vm, clazz: "Method" }] }, schemaDetail, [
      { path: "/vMs/0/clazz", message: 'Must be "VM" in vMs.' },
      ...amazonMissing(method, "/vMs/0"),
    ]);
  });

  it("rejects flat elements with an unknown, missing or misplaced clazz", async () => {
    await expectRejected(
      method,
      [
        { clazz: "CloudProvider", id: "p", type: "IaaS" },
        { clazz: "Method", id: "m", type: "op" },
        { id: "nameless", type: "op" },
        { clazz: "Database", id: "db", type: "SQL" },
        "mic1",
      ],
      schemaDetail,
      [
        { path: "/2/clazz", message: `Required: the class of the element, one of ${classList}.` },
        { path: "/3/clazz", message: `Unknown class "Database"; expected one of ${classList}.` },
        { path: "/4", message: `Must be a model element: an object with a clazz (${classList}).` },
      ],
    );
  });

  it("says exactly what is wrong with a VM labelled as a Method (the original's own fixture)", async () => {
    await expectRejected(
      method,
      [{ clazz: "Method", id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 }],
      schemaDetail,
      [
        {
          path: "/0/cloudProvider",
          message:
            'Field "cloudProvider" is not allowed on a Method; it belongs to VM, ExternalComponent and PaaSService.',
        },
        { path: "/0/numberOfCPUs", message: 'Field "numberOfCPUs" is not allowed on a Method; it belongs to VM.' },
        // Posted into the stored model, where frontend1 is a VM.
        ...(method === "POST"
          ? [
              {
                path: "/0/id",
                message: '"frontend1" is a VM in the stored model; an id cannot change class (delete it first).',
              },
            ]
          : []),
      ],
    );
  });

  it("refuses one element sent without its array, saying to wrap it", async () => {
    const takes = method === "POST" ? "POST takes an array" : "PUT takes the whole model, an array";
    await expectRejected(method, { clazz: "VM", ...vm }, schemaDetail, [
      {
        path: "",
        message: `This is one element, not a model: ${takes} of elements (or the grouped form); wrap the element in [ ].`,
      },
    ]);
  });
});

describe("field types", () => {
  it("requires a non-empty string id and type", async () => {
    await expectRejected(
      "PUT",
      { methods: [{}, { id: "", type: 3 }], cloudProviders: [{ id: 7, type: "" }] },
      schemaDetail,
      [
        { path: "/cloudProviders/0/id", message: "Must be a non-empty string." },
        { path: "/cloudProviders/0/type", message: "Must be a non-empty string." },
        { path: "/methods/0/id", message: "Required: a non-empty string." },
        { path: "/methods/0/type", message: "Required: a non-empty string." },
        { path: "/methods/1/id", message: "Must be a non-empty string." },
        { path: "/methods/1/type", message: "Must be a non-empty string." },
      ],
    );
  });

  it.each([0, -1, 1.5, "2", null])("rejects numberOfCPUs %j", async (numberOfCPUs) => {
    await expectRejected("POST", { vMs: [{ ...vm, numberOfCPUs }] }, schemaDetail, [
      { path: "/vMs/0/numberOfCPUs", message: "Must be an integer of at least 1." },
    ]);
  });

  it("requires every field of a VM", async () => {
    await expectRejected("POST", [{ clazz: "VM", id: "vm9" }], schemaDetail, [
      { path: "/0/type", message: "Required: a non-empty string." },
      { path: "/0/cloudProvider", message: "Required: the id of a CloudProvider." },
      { path: "/0/numberOfCPUs", message: "Required: an integer of at least 1." },
    ]);
  });

  it("requires relationships to be arrays of distinct, non-empty ids", async () => {
    const component = { id: "c9", type: "Svc" };
    await expectRejected(
      "POST",
      {
        internalComponents: [
          { ...component, providedMethods: "mic1-register" },
          { ...component, id: "c10", providedMethods: ["mic1-register", 5, ""], requiredComponents: [] },
          { ...component, id: "c11", requiredComponents: ["frontend1", "frontend1"] },
        ],
      },
      schemaDetail,
      [
        { path: "/internalComponents/0/providedMethods", message: "Must be an array of Method ids." },
        { path: "/internalComponents/1/providedMethods/1", message: "Must be the id of a Method." },
        { path: "/internalComponents/1/providedMethods/2", message: "Must be the id of a Method." },
        { path: "/internalComponents/2/requiredComponents/1", message: '"frontend1" is already listed at index 0.' },
      ],
    );
  });
});

describe("ids and references", () => {
  it("rejects an id used twice in the body, naming both places", async () => {
    await expectRejected(
      "PUT",
      {
        vMs: [{ ...vm, id: "x" }],
        methods: [{ id: "x", type: "op" }],
        cloudProviders: [{ id: "amazon", type: "IaaS" }],
      },
      modelDetail,
      [{ path: "/vMs/0/id", message: 'Duplicate id "x"; it is also used at /methods/0.' }],
    );
    await expectRejected(
      "POST",
      [
        { clazz: "Method", id: "m", type: "op" },
        { clazz: "Method", id: "m", type: "op2" },
      ],
      modelDetail,
      [{ path: "/1/id", message: 'Duplicate id "m"; it is also used at /0.' }],
    );
  });

  it("rejects references to ids that are not in the resulting model", async () => {
    await expectRejected(
      "POST",
      {
        vMs: [{ ...vm, cloudProvider: "nowhere" }],
        internalComponents: [
          { id: "c9", type: "Svc", providedMethods: ["mic1-register", "ghost"], requiredComponents: ["vm9"] },
        ],
      },
      modelDetail,
      [
        { path: "/vMs/0/cloudProvider", message: 'No resource has the id "nowhere"; expected a CloudProvider.' },
        {
          path: "/internalComponents/0/providedMethods/1",
          message: 'No resource has the id "ghost"; expected a Method.',
        },
      ],
    );
  });

  it("rejects references to an element of the wrong class, stored or sent", async () => {
    await expectRejected(
      "POST",
      {
        methods: [{ id: "m9", type: "op" }],
        vMs: [{ ...vm, cloudProvider: "mic1-register" }],
        internalComponents: [
          { id: "c9", type: "Svc", providedMethods: ["frontend1"], requiredComponents: ["m9", "amazon"] },
        ],
      },
      modelDetail,
      [
        { path: "/vMs/0/cloudProvider", message: '"mic1-register" is a Method, not a CloudProvider.' },
        { path: "/internalComponents/0/providedMethods/0", message: '"frontend1" is a VM, not a Method.' },
        { path: "/internalComponents/0/requiredComponents/0", message: `"m9" is a Method, not ${componentTarget}.` },
        {
          path: "/internalComponents/0/requiredComponents/1",
          message: `"amazon" is a CloudProvider, not ${componentTarget}.`,
        },
      ],
    );
  });

  it("judges a PUT against the body alone: stored elements are not in the resulting model", async () => {
    await expectRejected("PUT", { vMs: [vm] }, modelDetail, [
      { path: "/vMs/0/cloudProvider", message: 'No resource has the id "amazon"; expected a CloudProvider.' },
    ]);
  });

  it("rejects a POST that would change the class of a stored id", async () => {
    await expectRejected("POST", [{ clazz: "Method", id: "frontend1", type: "Frontend" }], modelDetail, [
      {
        path: "/0/id",
        message: '"frontend1" is a VM in the stored model; an id cannot change class (delete it first).',
      },
    ]);
  });

  it("lets a PUT give an id another class, since it replaces the model", async () => {
    await upload("PUT", { methods: [{ id: "frontend1", type: "op" }] });
    const response = await request("GET", "/resources/frontend1");
    expect(await response.json()).toEqual({ clazz: "Method", id: "frontend1", type: "op" });
  });

  it("lists the problems of fields and of references in one response", async () => {
    await expectRejected(
      "POST",
      {
        vMs: [{ ...vm, numberOfCPUs: 0, cloudProvider: "nowhere" }],
        internalComponents: [{ id: "c9", type: "Svc", providedMethods: ["ghost"], requiredComponents: [7] }],
      },
      schemaDetail,
      [
        { path: "/vMs/0/numberOfCPUs", message: "Must be an integer of at least 1." },
        { path: "/internalComponents/0/requiredComponents/0", message: "Must be the id of a Component." },
        { path: "/vMs/0/cloudProvider", message: 'No resource has the id "nowhere"; expected a CloudProvider.' },
        {
          path: "/internalComponents/0/providedMethods/0",
          message: 'No resource has the id "ghost"; expected a Method.',
        },
      ],
    );
  });

  it("lists every problem of the body in one response", async () => {
    await expectRejected(
      "POST",
      [
        { clazz: "VM", id: "vm9", type: "Worker", cloudProvider: "nowhere", numberOfCPUs: 1 },
        { clazz: "Method", id: "amazon", type: "op" },
        { clazz: "CloudProvider", id: "vm9", type: "IaaS" },
        { clazz: "InternalComponent", id: "c9", type: "Svc", providedMethods: ["amazon"], requiredComponents: [] },
      ],
      modelDetail,
      [
        {
          path: "/1/id",
          message: '"amazon" is a CloudProvider in the stored model; an id cannot change class (delete it first).',
        },
        { path: "/2/id", message: 'Duplicate id "vm9"; it is also used at /0.' },
        { path: "/0/cloudProvider", message: 'No resource has the id "nowhere"; expected a CloudProvider.' },
      ],
    );
  });
});

describe("media type and syntax", () => {
  it("answers 415 for a non-JSON content type and stores nothing", async () => {
    const response = await request("PUT", "/resources", {
      body: JSON.stringify({ methods: [{ id: "m9", type: "op" }] }),
      headers: { "content-type": "text/plain" },
    });
    await expectProblem(response, 415, {
      type: "urn:tower-edge:problem:unsupported-media-type",
      title: "Unsupported media type",
      status: 415,
      detail: "Expected application/json, got text/plain.",
    });
    expect(await readModel()).toEqual(referenceModelStored);
  });

  it("answers 400 for malformed JSON and stores nothing", async () => {
    const response = await request("POST", "/v1/resources", {
      body: '{"methods": [',
      headers: { "content-type": "application/json" },
    });
    await expectProblem(response, 400, {
      type: "urn:tower-edge:problem:malformed-json",
      title: "Malformed JSON",
      status: 400,
      detail: "The body is not valid JSON: Unexpected end of JSON input",
    });
    expect(await readModel()).toEqual(referenceModelStored);
  });

  it("answers 400 for a body nested 5,000 levels deep and stores nothing", async () => {
    const depth = 5_000;
    const body = `{"methods":[${'{"id":'.repeat(depth)}"m9"${"}".repeat(depth)}]}`;
    const response = await request("PUT", "/resources", { body, headers: { "content-type": "application/json" } });
    await expectProblem(response, 400, {
      type: "urn:tower-edge:problem:malformed-json",
      title: "Malformed JSON",
      status: 400,
      detail: "The body is nested more than 64 levels deep.",
    });
    expect(await readModel()).toEqual(referenceModelStored);
  });

  it("reads a body without a content type as JSON", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ methods: [{ id: "m9", type: "op" }] }));
    const response = await request("POST", "/resources", { body });
    expect(response.status).toBe(204);
    const stored = await request("GET", "/resources/m9");
    expect(await stored.json()).toEqual({ clazz: "Method", id: "m9", type: "op" });
  });
});

describe.each(["PUT", "POST"] as const)("%s /resources: references of the whole ontology", (method) => {
  // A PUT is judged against its body alone, so the stored provider is sent again.
  const amazon = { id: "amazon", type: "IaaS" };

  it("lists every wrong reference of the new classes in the grouped form", async () => {
    await expectRejected(
      method,
      {
        cloudProviders: [amazon],
        locations: [{ id: "eu", type: "Region" }],
        vMs: [{ ...vm, location: "amazon" }],
        paaSServices: [{ id: "db", type: "Database", cloudProvider: "eu", location: "nowhere" }],
        externalComponents: [{ id: "cdn", type: "CDN", cloudProvider: "amazon", location: "eu" }],
        components: [{ id: "legacy", type: "Mainframe" }],
        internalComponents: [{ id: "app", type: "App", providedMethods: [], requiredComponents: ["db", "eu"] }],
        nodes: [{ id: "n1", type: "Blade", vms: ["vm9", "cdn"] }],
        clusters: [{ id: "k1", type: "HPC", nodes: ["n1", "vm9"] }],
        racks: [{ id: "r1", type: "Rack42", nodes: ["k1"] }],
      },
      modelDetail,
      [
        { path: "/vMs/0/location", message: '"amazon" is a CloudProvider, not a Location.' },
        { path: "/internalComponents/0/requiredComponents/1", message: `"eu" is a Location, not ${componentTarget}.` },
        { path: "/paaSServices/0/cloudProvider", message: '"eu" is a Location, not a CloudProvider.' },
        { path: "/paaSServices/0/location", message: 'No resource has the id "nowhere"; expected a Location.' },
        { path: "/nodes/0/vms/1", message: '"cdn" is an ExternalComponent, not a VM.' },
        { path: "/clusters/0/nodes/1", message: '"vm9" is a VM, not a Node.' },
        { path: "/racks/0/nodes/0", message: '"k1" is a Cluster, not a Node.' },
      ],
    );
  });

  it("lists every wrong reference of the new classes in the flat form", async () => {
    await expectRejected(
      method,
      [
        { clazz: "Rack", id: "r1", type: "Rack42", nodes: ["n1", "ghost"] },
        { clazz: "Node", id: "n1", type: "Blade", vms: ["frontend1"] },
        { clazz: "ExternalComponent", id: "cdn", type: "CDN", location: "frontend1" },
        { clazz: "CloudProvider", ...amazon },
      ],
      modelDetail,
      [
        { path: "/0/nodes/1", message: 'No resource has the id "ghost"; expected a Node.' },
        // frontend1 is the stored VM: a POST keeps it, a PUT does not.
        ...(method === "PUT"
          ? [{ path: "/1/vms/0", message: 'No resource has the id "frontend1"; expected a VM.' }]
          : []),
        {
          path: "/2/location",
          message:
            method === "PUT"
              ? 'No resource has the id "frontend1"; expected a Location.'
              : '"frontend1" is a VM, not a Location.',
        },
      ],
    );
  });

  it("lists the missing fields and wrong types of the new classes", async () => {
    await expectRejected(
      method,
      [
        { clazz: "Location", id: "eu" },
        { clazz: "PaaSService", id: "db", type: "Database", cloudProvider: 5 },
        { clazz: "Node", id: "n1", type: "Blade", vms: ["a", "a"] },
        { clazz: "Cluster", id: "k1", type: "HPC", nodes: "n1" },
        { clazz: "Component", id: "c1", type: "Mainframe", location: "eu" },
      ],
      schemaDetail,
      [
        { path: "/0/type", message: "Required: a non-empty string." },
        { path: "/1/cloudProvider", message: "Must be the id of a CloudProvider." },
        { path: "/2/vms/1", message: '"a" is already listed at index 0.' },
        { path: "/3/nodes", message: "Must be an array of Node ids." },
        {
          path: "/4/location",
          message:
            'Field "location" is not allowed on a Component; it belongs to VM, ExternalComponent and PaaSService.',
        },
      ],
    );
  });
});
