import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { emptyModel } from "../../../test/support/model";
import type { LocatedResource, Resource } from "./schema";

/** A fresh knowledge base for each test. */
function knowledgeBaseNamed(name: string) {
  return env.KNOWLEDGE_BASE.getByName(`kb-test-${name}`);
}

function atIndex(resources: readonly Resource[], base = "/resources"): LocatedResource[] {
  return resources.map((resource, index) => ({ at: `${base}/${index}`, resource }));
}

/** The Java App collector's resources (an app on a VM on AWS, one method), as it registers them. */
const javaAppResources: Resource[] = [
  { clazz: "CloudProvider", type: "IaaS", id: "AWS" },
  { cloudProvider: "AWS", clazz: "VM", type: "Frontend", id: "Frontend1" },
  {
    requiredComponents: ["Frontend1"],
    providedMethods: ["register_2047568"],
    clazz: "InternalComponent",
    type: "App",
    id: "App1",
  },
  { clazz: "Method", type: "register", id: "register_2047568" },
];

const javaAppModel = {
  ...emptyModel,
  cloudProviders: [{ id: "AWS", type: "IaaS" }],
  vMs: [{ id: "Frontend1", type: "Frontend", cloudProvider: "AWS" }],
  internalComponents: [
    { id: "App1", type: "App", providedMethods: ["register_2047568"], requiredComponents: ["Frontend1"] },
  ],
  methods: [{ id: "register_2047568", type: "register" }],
};

describe("KnowledgeBase.mergeCollectorResources", () => {
  it("adds a collector's resources as the original's collectors describe them", async () => {
    const kb = knowledgeBaseNamed("java-app");
    expect(await kb.mergeCollectorResources("dc1", atIndex(javaAppResources))).toEqual({ ok: true });
    expect(await kb.readModel()).toEqual(javaAppModel);
  });

  it("merges into a stored resource: sets united, other fields given replaced, the rest kept", async () => {
    const kb = knowledgeBaseNamed("merge");
    await kb.upsertResources(
      atIndex([
        { clazz: "CloudProvider", id: "AWS", type: "IaaS" },
        { clazz: "VM", id: "Frontend1", type: "Web", cloudProvider: "AWS", numberOfCPUs: 4 },
        { clazz: "Method", id: "login", type: "login" },
        { clazz: "InternalComponent", id: "App1", type: "Old", providedMethods: ["login"], requiredComponents: [] },
      ]),
    );
    expect(await kb.mergeCollectorResources("dc1", atIndex(javaAppResources))).toEqual({ ok: true });
    expect(await kb.readResource("Frontend1")).toEqual({
      clazz: "VM",
      id: "Frontend1",
      type: "Frontend",
      cloudProvider: "AWS",
      numberOfCPUs: 4,
    });
    expect(await kb.readResource("App1")).toEqual({
      clazz: "InternalComponent",
      id: "App1",
      type: "App",
      providedMethods: ["login", "register_2047568"],
      requiredComponents: ["Frontend1"],
    });
  });

  it("lists every problem, located in the collector's body, and writes nothing", async () => {
    const kb = knowledgeBaseNamed("problems");
    await kb.upsertResources(atIndex([{ clazz: "Method", id: "m1", type: "op" }]));
    const result = await kb.mergeCollectorResources(
      "dc1",
      atIndex([
        { clazz: "VM", id: "vm1", cloudProvider: "nowhere" },
        { clazz: "Location", id: "m1" },
        { clazz: "Node", id: "n1", vms: ["vm1", "m1"] },
      ]),
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          path: "/resources/1/id",
          message: '"m1" is a Method in the stored model; an id cannot change class (delete it first).',
        },
        {
          path: "/resources/0/cloudProvider",
          message: 'No resource has the id "nowhere"; expected a CloudProvider.',
        },
        { path: "/resources/2/vms/1", message: '"m1" is a Location, not a VM.' },
      ],
    });
    expect(await kb.readModel()).toEqual({ ...emptyModel, methods: [{ id: "m1", type: "op" }] });
    // Nothing was recorded either: releasing the collector changes nothing.
    expect(await kb.releaseCollectorResources(["dc1"])).toEqual({ removed: [] });
  });

  it("drops what a re-registration no longer lists, unless another collector lists it", async () => {
    const kb = knowledgeBaseNamed("re-register");
    await kb.mergeCollectorResources("dc1", atIndex(javaAppResources));
    await kb.mergeCollectorResources("dc2", atIndex([javaAppResources[0]!]));
    await kb.mergeCollectorResources("dc1", atIndex([{ clazz: "Location", id: "eu" }]));
    expect(await kb.readModel()).toEqual({
      ...emptyModel,
      cloudProviders: [{ id: "AWS", type: "IaaS" }],
      locations: [{ id: "eu" }],
    });
  });
});

describe("KnowledgeBase.releaseCollectorResources", () => {
  it("removes a collector's resources once no collector lists them, and never uploaded ones", async () => {
    const kb = knowledgeBaseNamed("release");
    await kb.upsertResources(atIndex([{ clazz: "CloudProvider", id: "AWS", type: "IaaS" }]));
    await kb.mergeCollectorResources("dc1", atIndex(javaAppResources));
    await kb.mergeCollectorResources("dc2", atIndex([javaAppResources[3]!]));
    expect(await kb.releaseCollectorResources(["dc1", "never-registered"])).toEqual({
      removed: ["App1", "Frontend1"],
    });
    expect(await kb.readModel()).toEqual({
      ...emptyModel,
      cloudProviders: [{ id: "AWS", type: "IaaS" }],
      methods: [{ id: "register_2047568", type: "register" }],
    });
    expect(await kb.releaseCollectorResources(["dc2"])).toEqual({ removed: ["register_2047568"] });
    expect(await kb.releaseCollectorResources(["dc2"])).toEqual({ removed: [] });
  });

  it("keeps a released resource that an uploaded one refers to, until that one is deleted", async () => {
    const kb = knowledgeBaseNamed("referred");
    await kb.mergeCollectorResources("dc1", atIndex([{ clazz: "CloudProvider", id: "AWS" }]));
    await kb.upsertResources(atIndex([{ clazz: "VM", id: "vm1", type: "Web", cloudProvider: "AWS", numberOfCPUs: 1 }]));
    expect(await kb.releaseCollectorResources(["dc1"])).toEqual({ removed: [] });
    expect(await kb.deleteResource("vm1")).toEqual({ outcome: "deleted" });
    expect(await kb.readModel()).toEqual(emptyModel);
  });

  it("keeps a collector's resource that was also uploaded through /resources", async () => {
    const kb = knowledgeBaseNamed("also-uploaded");
    await kb.mergeCollectorResources("dc1", atIndex(javaAppResources));
    await kb.upsertResources(atIndex([{ clazz: "Method", id: "register_2047568", type: "register" }]));
    await kb.releaseCollectorResources(["dc1"]);
    expect(await kb.readModel()).toEqual({ ...emptyModel, methods: [{ id: "register_2047568", type: "register" }] });
  });
});

describe("KnowledgeBase.restoreCollectorResources", () => {
  it("writes back what was deleted, and leaves what is there as it is", async () => {
    const kb = knowledgeBaseNamed("restore");
    await kb.mergeCollectorResources("dc1", atIndex(javaAppResources));
    await kb.upsertResources(atIndex([{ clazz: "CloudProvider", id: "AWS", type: "Cloud" }]));
    await kb.deleteResource("App1");
    await kb.deleteResource("register_2047568");
    expect(await kb.restoreCollectorResources("dc1", javaAppResources)).toEqual({
      restored: ["App1", "register_2047568"],
    });
    expect(await kb.readModel()).toEqual({ ...javaAppModel, cloudProviders: [{ id: "AWS", type: "Cloud" }] });
    expect(await kb.restoreCollectorResources("dc1", javaAppResources)).toEqual({ restored: [] });
  });

  it("brings back what a replacement of the model left out", async () => {
    const kb = knowledgeBaseNamed("after-put");
    await kb.mergeCollectorResources("dc1", atIndex(javaAppResources));
    await kb.replaceModel(atIndex([{ clazz: "Location", id: "eu", type: "Region" }]));
    expect((await kb.restoreCollectorResources("dc1", javaAppResources)).restored).toHaveLength(4);
    expect(await kb.readModel()).toEqual({ ...javaAppModel, locations: [{ id: "eu", type: "Region" }] });
  });

  it("skips resources whose references cannot resolve any more, and what refers to them", async () => {
    const kb = knowledgeBaseNamed("unresolvable");
    const resources: Resource[] = [
      { clazz: "VM", id: "vm1", cloudProvider: "AWS" },
      { clazz: "Node", id: "n1", vms: ["vm1"] },
      { clazz: "Location", id: "eu" },
    ];
    await kb.upsertResources(atIndex([{ clazz: "CloudProvider", id: "AWS", type: "IaaS" }]));
    await kb.mergeCollectorResources("dc1", atIndex(resources));
    await kb.deleteResource("n1");
    await kb.deleteResource("vm1");
    await kb.deleteResource("eu");
    await kb.deleteResource("AWS");
    expect(await kb.restoreCollectorResources("dc1", resources)).toEqual({ restored: ["eu"] });
  });

  it("records the listing again, so that the restored resources stay", async () => {
    const kb = knowledgeBaseNamed("relisted");
    await kb.mergeCollectorResources("dc1", atIndex(javaAppResources));
    await kb.releaseCollectorResources(["dc1"]);
    expect((await kb.restoreCollectorResources("dc1", javaAppResources)).restored).toHaveLength(4);
    await kb.upsertResources([]);
    expect(await kb.readModel()).toEqual(javaAppModel);
  });
});

describe("KnowledgeBase.modelVersion", () => {
  it("changes with every change of the model, and only then", async () => {
    const kb = knowledgeBaseNamed("version");
    const versions = [await kb.modelVersion()];
    const expectVersion = async (changed: boolean) => {
      const version = await kb.modelVersion();
      expect(version === versions.at(-1)).toBe(!changed);
      versions.push(version);
    };
    await kb.mergeCollectorResources("dc1", atIndex(javaAppResources));
    await expectVersion(true);
    await kb.restoreCollectorResources("dc1", javaAppResources);
    await expectVersion(false);
    await kb.upsertResources(atIndex([{ clazz: "VM", id: "Frontend1", cloudProvider: "nowhere" }]));
    await expectVersion(false);
    await kb.deleteResource("register_2047568");
    await expectVersion(false);
    await kb.deleteResource("App1");
    await expectVersion(true);
    await kb.restoreCollectorResources("dc1", javaAppResources);
    await expectVersion(true);
    await kb.releaseCollectorResources(["dc2"]);
    await expectVersion(false);
    await kb.releaseCollectorResources(["dc1"]);
    await expectVersion(true);
    await kb.replaceModel(atIndex([{ clazz: "Location", id: "eu" }]));
    await expectVersion(true);
    expect(new Set(versions).size).toBe(6);
  });
});
