import { describe, expect, it } from "vitest";
import {
  emptyModel,
  referenceModel,
  referenceModelFlat,
  referenceModelStored,
  wholeOntologyModel,
} from "../support/model";
import { api, clientAt, idParam } from "./support/client";
import { expectProblem, prefixes, request, sendJson } from "./support/http";
import { readModel, upload } from "./support/resources";

// Storage is shared by the tests of this file, so every test starts by uploading the model it needs.

describe("POST /resources without a stored model", () => {
  // First in the file: the knowledge base has never been written.
  it("creates the model", async () => {
    expect(await readModel()).toEqual(emptyModel);
    await upload("POST", referenceModel);
    expect(await readModel()).toEqual(referenceModelStored);
  });
});

describe.each(prefixes)("the model under prefix '%s'", (prefix) => {
  it("PUT stores the grouped form and GET returns it with every array sorted by id", async () => {
    await upload("PUT", referenceModel, prefix);
    expect(await readModel(prefix)).toEqual(referenceModelStored);
  });

  it("PUT stores the flat form", async () => {
    await upload("PUT", emptyModel, prefix);
    await upload("PUT", referenceModelFlat, prefix);
    expect(await readModel(prefix)).toEqual(referenceModelStored);
  });

  it("PUT replaces the whole model", async () => {
    await upload("PUT", referenceModel, prefix);
    const replacement = {
      cloudProviders: [{ id: "azure", type: "IaaS" }],
      vMs: [{ id: "backend1", type: "Backend", cloudProvider: "azure", numberOfCPUs: 4 }],
    };
    await upload("PUT", replacement, prefix);
    expect(await readModel(prefix)).toEqual({ ...emptyModel, ...replacement });
    const gone = await request("GET", `${prefix}/resources/amazon`);
    await expectProblem(gone, 404, {
      type: "urn:tower-edge:problem:not-found",
      title: "Resource not found",
      status: 404,
      detail: 'No resource has the id "amazon".',
    });
  });

  it("POST upserts by id and keeps the other elements", async () => {
    await upload("PUT", referenceModel, prefix);
    await upload(
      "POST",
      [
        { clazz: "VM", id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 8 },
        { clazz: "CloudProvider", id: "azure", type: "PaaS" },
        { clazz: "VM", id: "backend1", type: "Backend", cloudProvider: "azure", numberOfCPUs: 1 },
      ],
      prefix,
    );
    expect(await readModel(prefix)).toEqual({
      ...referenceModelStored,
      cloudProviders: [
        { id: "amazon", type: "IaaS" },
        { id: "azure", type: "PaaS" },
      ],
      vMs: [
        { id: "backend1", type: "Backend", cloudProvider: "azure", numberOfCPUs: 1 },
        { id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 8 },
      ],
    });
  });

  it("GET /resources/:id answers each class with its clazz and fields", async () => {
    await upload("PUT", referenceModel, prefix);
    const expected = {
      amazon: { clazz: "CloudProvider", id: "amazon", type: "IaaS" },
      "mic1-register": { clazz: "Method", id: "mic1-register", type: "register" },
      frontend1: { clazz: "VM", id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 },
      mic1: { clazz: "InternalComponent", ...referenceModel.internalComponents[0] },
    };
    for (const [id, resource] of Object.entries(expected)) {
      const response = await clientAt(prefix).resources[":id"].$get({ param: idParam(id) });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(resource);
    }
  });

  it("DELETE /resources/:id removes an element nothing refers to", async () => {
    await upload("PUT", referenceModel, prefix);
    const response = await clientAt(prefix).resources[":id"].$delete({ param: idParam("mic1") });
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 204, body: "" });
    expect(await readModel(prefix)).toEqual({ ...referenceModelStored, internalComponents: [] });
  });

  it("DELETE /resources/:id answers 404 for an unknown id", async () => {
    await upload("PUT", referenceModel, prefix);
    await expectProblem(await request("DELETE", `${prefix}/resources/nope`), 404, {
      type: "urn:tower-edge:problem:not-found",
      title: "Resource not found",
      status: 404,
      detail: 'No resource has the id "nope".',
    });
    expect(await readModel(prefix)).toEqual(referenceModelStored);
  });
});

describe("the whole ontology", () => {
  const wholeModelStored = { ...emptyModel, ...wholeOntologyModel };
  const classOfArray: Record<string, string> = {
    cloudProviders: "CloudProvider",
    locations: "Location",
    vMs: "VM",
    paaSServices: "PaaSService",
    externalComponents: "ExternalComponent",
    components: "Component",
    internalComponents: "InternalComponent",
    methods: "Method",
    nodes: "Node",
    clusters: "Cluster",
    racks: "Rack",
  };
  /** The whole model in the flat form, in an order where references come before their targets. */
  const wholeModelFlat = Object.entries(wholeOntologyModel)
    .toReversed()
    .flatMap(([array, elements]) => elements.map((element) => ({ clazz: classOfArray[array], ...element })));

  it("stores every class in the grouped form and returns it with every array sorted by id", async () => {
    await upload("PUT", wholeOntologyModel);
    expect(await readModel()).toEqual(wholeModelStored);
  });

  it("stores every class in the flat form", async () => {
    await upload("PUT", emptyModel);
    await upload("PUT", wholeModelFlat);
    expect(await readModel()).toEqual(wholeModelStored);
  });

  it("answers GET /resources/:id for every class with its clazz and fields", async () => {
    await upload("PUT", wholeOntologyModel);
    for (const element of wholeModelFlat) {
      const response = await api.resources[":id"].$get({ param: idParam(element.id) });
      expect(await response.json()).toEqual(element);
    }
  });

  it("POST replaces elements of the new classes by id, their sets included", async () => {
    await upload("PUT", wholeOntologyModel);
    await upload("POST", [
      { clazz: "Node", id: "node2", type: "Blade", vms: ["vm2"] },
      { clazz: "Rack", id: "rack1", type: "Rack42", nodes: ["node2"] },
      { clazz: "VM", id: "vm2", type: "Frontend", cloudProvider: "aws", location: "us-east", numberOfCPUs: 4 },
    ]);
    const model = (await readModel()) as typeof wholeModelStored;
    expect(model.racks).toEqual([{ id: "rack1", type: "Rack42", nodes: ["node2"] }]);
    expect(model.nodes).toEqual([...wholeOntologyModel.nodes, { id: "node2", type: "Blade", vms: ["vm2"] }]);
    expect(model.vMs[1]).toEqual({
      id: "vm2",
      type: "Frontend",
      cloudProvider: "aws",
      location: "us-east",
      numberOfCPUs: 4,
    });
  });

  it("answers 409 naming the referrers of every kind of reference", async () => {
    await upload("PUT", wholeOntologyModel);
    const referrersOf = async (id: string) => {
      const response = await request("DELETE", `/resources/${id}`);
      expect(response.status).toBe(409);
      return ((await response.json()) as { errors: { message: string }[] }).errors.map((error) => error.message);
    };
    expect(await referrersOf("node1")).toEqual([
      "Cluster cluster1 refers to it in nodes.",
      "Rack rack1 refers to it in nodes.",
    ]);
    expect(await referrersOf("eu-west")).toEqual(["VM vm1 refers to it in location."]);
    expect(await referrersOf("vm1")).toEqual([
      "InternalComponent app refers to it in requiredComponents.",
      "Node node1 refers to it in vms.",
    ]);
    expect(await referrersOf("app")).toEqual(["InternalComponent worker refers to it in requiredComponents."]);
    expect(await readModel()).toEqual(wholeModelStored);
  });

  it("deletes the new classes once nothing refers to them", async () => {
    await upload("PUT", wholeOntologyModel);
    for (const id of ["rack1", "cluster1", "node1", "worker", "cdn", "legacy"]) {
      const response = await request("DELETE", `/resources/${id}`);
      expect({ id, status: response.status }).toEqual({ id, status: 204 });
    }
    const model = (await readModel()) as typeof wholeModelStored;
    expect([model.racks, model.clusters, model.nodes, model.externalComponents, model.components]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
  });
});

describe("the grouped form", () => {
  it("accepts any subset of the arrays, and an element's clazz when it names the array's class", async () => {
    await upload("PUT", { methods: [{ clazz: "Method", id: "m1", type: "op" }] });
    expect(await readModel()).toEqual({ ...emptyModel, methods: [{ id: "m1", type: "op" }] });
  });

  it("defaults a component's missing relationships to empty arrays", async () => {
    await upload("PUT", { internalComponents: [{ id: "c1", type: "Lonely" }] });
    expect(await readModel()).toEqual({
      ...emptyModel,
      internalComponents: [{ id: "c1", type: "Lonely", providedMethods: [], requiredComponents: [] }],
    });
  });
});

describe("ordering", () => {
  it("sorts every array by id and keeps relationships in the order given", async () => {
    await upload("PUT", {
      cloudProviders: [
        { id: "p2", type: "IaaS" },
        { id: "p1", type: "IaaS" },
      ],
      methods: [
        { id: "m3", type: "op" },
        { id: "m1", type: "op" },
        { id: "m2", type: "op" },
      ],
      vMs: [
        { id: "vm2", type: "Backend", cloudProvider: "p2", numberOfCPUs: 1 },
        { id: "vm1", type: "Frontend", cloudProvider: "p1", numberOfCPUs: 1 },
      ],
      internalComponents: [
        { id: "c2", type: "Api", providedMethods: ["m3", "m1"], requiredComponents: ["vm2", "vm1"] },
        { id: "c1", type: "Web", providedMethods: ["m2"], requiredComponents: ["vm1"] },
      ],
    });
    expect(await readModel()).toEqual({
      ...emptyModel,
      cloudProviders: [
        { id: "p1", type: "IaaS" },
        { id: "p2", type: "IaaS" },
      ],
      internalComponents: [
        { id: "c1", type: "Web", providedMethods: ["m2"], requiredComponents: ["vm1"] },
        { id: "c2", type: "Api", providedMethods: ["m3", "m1"], requiredComponents: ["vm2", "vm1"] },
      ],
      methods: [
        { id: "m1", type: "op" },
        { id: "m2", type: "op" },
        { id: "m3", type: "op" },
      ],
      vMs: [
        { id: "vm1", type: "Frontend", cloudProvider: "p1", numberOfCPUs: 1 },
        { id: "vm2", type: "Backend", cloudProvider: "p2", numberOfCPUs: 1 },
      ],
    });
  });
});

describe("POST /resources", () => {
  it("replaces a component's relationships with the ones sent", async () => {
    await upload("PUT", referenceModel);
    await upload("POST", {
      internalComponents: [{ id: "mic1", type: "Mic2", providedMethods: ["mic1-saveAnswers"], requiredComponents: [] }],
    });
    expect(await readModel()).toEqual({
      ...referenceModelStored,
      internalComponents: [{ id: "mic1", type: "Mic2", providedMethods: ["mic1-saveAnswers"], requiredComponents: [] }],
    });
  });

  it("lets new elements refer to stored ones and to each other", async () => {
    await upload("PUT", referenceModel);
    await upload("POST", {
      internalComponents: [
        { id: "mic2", type: "Mic", providedMethods: ["mic1-register", "mic2-vote"], requiredComponents: ["frontend2"] },
      ],
      methods: [{ id: "mic2-vote", type: "vote" }],
      vMs: [{ id: "frontend2", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 1 }],
    });
    const response = await request("GET", "/resources/mic2");
    expect(await response.json()).toEqual({
      clazz: "InternalComponent",
      id: "mic2",
      type: "Mic",
      providedMethods: ["mic1-register", "mic2-vote"],
      requiredComponents: ["frontend2"],
    });
  });

  it("serializes concurrent updates: both take effect", async () => {
    await upload("PUT", referenceModel);
    const responses = await Promise.all([
      sendJson("POST", "/resources", { methods: [{ id: "concurrent-a", type: "a" }] }),
      sendJson("POST", "/resources", [
        { clazz: "VM", id: "concurrent-b", type: "b", cloudProvider: "amazon", numberOfCPUs: 1 },
      ]),
    ]);
    expect(responses.map((response) => response.status)).toEqual([204, 204]);
    const model = (await readModel()) as typeof referenceModelStored;
    expect(model.methods.map((method) => method.id)).toContain("concurrent-a");
    expect(model.vMs.map((vm) => vm.id)).toContain("concurrent-b");
  });
});

describe("DELETE /resources/:id of a resource others refer to", () => {
  const conflict = (detail: string, errors: { path: string; message: string }[]) => ({
    type: "urn:tower-edge:problem:conflict",
    title: "Conflict",
    status: 409,
    detail,
    errors,
  });

  it("answers 409 naming the referrers and deletes nothing", async () => {
    await upload("PUT", referenceModel);
    await upload("POST", {
      internalComponents: [
        { id: "mic2", type: "Mic", providedMethods: ["mic1-register"], requiredComponents: ["frontend1"] },
      ],
      vMs: [{ id: "frontend2", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 1 }],
    });
    const before = await readModel();

    await expectProblem(
      await request("DELETE", "/resources/amazon"),
      409,
      conflict(
        '"amazon" is still referred to by frontend1 (cloudProvider), frontend2 (cloudProvider); nothing was deleted.',
        [
          { path: "/id", message: "VM frontend1 refers to it in cloudProvider." },
          { path: "/id", message: "VM frontend2 refers to it in cloudProvider." },
        ],
      ),
    );
    await expectProblem(
      await request("DELETE", "/v1/resources/mic1-register"),
      409,
      conflict(
        '"mic1-register" is still referred to by mic1 (providedMethods), mic2 (providedMethods); nothing was deleted.',
        [
          { path: "/id", message: "InternalComponent mic1 refers to it in providedMethods." },
          { path: "/id", message: "InternalComponent mic2 refers to it in providedMethods." },
        ],
      ),
    );
    await expectProblem(
      await request("DELETE", "/resources/frontend1"),
      409,
      conflict(
        '"frontend1" is still referred to by mic1 (requiredComponents), mic2 (requiredComponents); nothing was deleted.',
        [
          { path: "/id", message: "InternalComponent mic1 refers to it in requiredComponents." },
          { path: "/id", message: "InternalComponent mic2 refers to it in requiredComponents." },
        ],
      ),
    );
    expect(await readModel()).toEqual(before);
  });

  it("names the first ten referrers in the detail and all of them in errors", async () => {
    const vmIds = Array.from({ length: 12 }, (_, index) => `vm${String(index).padStart(2, "0")}`);
    await upload("PUT", {
      cloudProviders: [{ id: "amazon", type: "IaaS" }],
      vMs: vmIds.map((id) => ({ id, type: "Worker", cloudProvider: "amazon", numberOfCPUs: 1 })),
    });
    const response = await request("DELETE", "/resources/amazon");
    expect(response.status).toBe(409);
    const problem = (await response.json()) as { detail: string; errors: unknown[] };
    const named = vmIds.slice(0, 10).map((id) => `${id} (cloudProvider)`);
    expect(problem.detail).toBe(
      `"amazon" is still referred to by ${named.join(", ")} and 2 more; nothing was deleted.`,
    );
    expect(problem.errors).toEqual(
      vmIds.map((id) => ({ path: "/id", message: `VM ${id} refers to it in cloudProvider.` })),
    );
  });

  it("deletes a resource once its referrers are gone", async () => {
    await upload("PUT", referenceModel);
    for (const id of ["mic1", "frontend1", "amazon", "mic1-register"]) {
      const response = await request("DELETE", `/resources/${id}`);
      expect({ id, status: response.status }).toEqual({ id, status: 204 });
    }
    expect(await readModel()).toEqual({
      ...emptyModel,
      methods: referenceModelStored.methods.filter((method) => method.id !== "mic1-register"),
    });
  });
});

describe("ids that need escaping in a path", () => {
  it("reads and deletes an id with a slash and spaces through percent-encoding", async () => {
    await upload("PUT", { methods: [{ id: "a/b c", type: "op" }] });
    const resource = api.resources[":id"];
    const read = await resource.$get({ param: idParam("a/b c") });
    expect(await read.json()).toEqual({ clazz: "Method", id: "a/b c", type: "op" });
    expect((await resource.$delete({ param: idParam("a/b c") })).status).toBe(204);
    expect(await readModel()).toEqual(emptyModel);
  });
});

describe("methods", () => {
  it.each([
    ["/resources", "PATCH", "GET, HEAD, POST, PUT"],
    ["/v1/resources/amazon", "PUT", "DELETE, GET, HEAD"],
  ])("answers 405 with Allow on %s for %s", async (path, method, allow) => {
    const response = await request(method, path);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    await response.body?.cancel();
  });
});

describe("a large model", () => {
  it("stores and returns thousands of elements", async () => {
    const providers = Array.from({ length: 10 }, (_, index) => ({ id: `provider-${index}`, type: "IaaS" }));
    const vms = Array.from({ length: 2_000 }, (_, index) => ({
      id: `vm-${String(index).padStart(4, "0")}`,
      type: "Worker",
      cloudProvider: `provider-${index % 10}`,
      numberOfCPUs: 1 + (index % 8),
    }));
    const methods = Array.from({ length: 1_000 }, (_, index) => ({
      id: `method-${String(index).padStart(4, "0")}`,
      type: "op",
    }));
    const components = Array.from({ length: 500 }, (_, index) => ({
      id: `component-${String(index).padStart(3, "0")}`,
      type: "Service",
      providedMethods: [methods[2 * index]!.id, methods[2 * index + 1]!.id],
      requiredComponents: [vms[4 * index]!.id, vms[4 * index + 1]!.id],
    }));
    const model = { cloudProviders: providers, internalComponents: components, methods, vMs: vms };
    await upload("PUT", model);
    expect(await readModel()).toEqual({ ...emptyModel, ...model });
  });
});
