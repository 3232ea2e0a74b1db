/** Model documents as clients of the service send them. */

/** The original system's documented example: provider amazon, VM frontend1, the mic1 methods and component. */
export const referenceModel = {
  cloudProviders: [{ id: "amazon", type: "IaaS" }],
  internalComponents: [
    {
      id: "mic1",
      type: "Mic",
      providedMethods: ["mic1-register", "mic1-answerQuestions", "mic1-saveAnswers"],
      requiredComponents: ["frontend1"],
    },
  ],
  methods: [
    { id: "mic1-register", type: "register" },
    { id: "mic1-answerQuestions", type: "answerQuestions" },
    { id: "mic1-saveAnswers", type: "saveAnswers" },
  ],
  vMs: [{ id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 }],
};

/** The same model in the flat form, in an order where references come before their targets. */
export const referenceModelFlat = [
  {
    clazz: "InternalComponent",
    id: "mic1",
    type: "Mic",
    providedMethods: ["mic1-register", "mic1-answerQuestions", "mic1-saveAnswers"],
    requiredComponents: ["frontend1"],
  },
  { clazz: "VM", id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 },
  { clazz: "Method", id: "mic1-saveAnswers", type: "saveAnswers" },
  { clazz: "Method", id: "mic1-register", type: "register" },
  { clazz: "Method", id: "mic1-answerQuestions", type: "answerQuestions" },
  { clazz: "CloudProvider", id: "amazon", type: "IaaS" },
];

/** GET /resources of an empty model: every array of the grouped form, empty. */
export const emptyModel = {
  cloudProviders: [],
  internalComponents: [],
  methods: [],
  vMs: [],
  locations: [],
  components: [],
  externalComponents: [],
  paaSServices: [],
  nodes: [],
  clusters: [],
  racks: [],
};

/** GET /resources after uploading the reference model: arrays sorted by id, relationships as given. */
export const referenceModelStored = {
  ...emptyModel,
  cloudProviders: [{ id: "amazon", type: "IaaS" }],
  internalComponents: referenceModel.internalComponents,
  methods: [
    { id: "mic1-answerQuestions", type: "answerQuestions" },
    { id: "mic1-register", type: "register" },
    { id: "mic1-saveAnswers", type: "saveAnswers" },
  ],
  vMs: [{ id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 }],
};

/**
 * A model of every class of the original's ontology: an app on two VMs and a PaaS database of one
 * provider, the VMs in a node of a cluster and a rack, one VM and the database in different
 * locations; a worker that requires the app, an external component and a generic one.
 */
export const wholeOntologyModel = {
  cloudProviders: [{ id: "aws", type: "IaaS" }],
  locations: [
    { id: "eu-west", type: "Region" },
    { id: "us-east", type: "Region" },
  ],
  vMs: [
    { id: "vm1", type: "Frontend", cloudProvider: "aws", location: "eu-west", numberOfCPUs: 2 },
    { id: "vm2", type: "Frontend", cloudProvider: "aws", numberOfCPUs: 4 },
  ],
  paaSServices: [{ id: "db", type: "Database", cloudProvider: "aws", location: "us-east" }],
  externalComponents: [{ id: "cdn", type: "CDN", cloudProvider: "aws" }],
  components: [{ id: "legacy", type: "Mainframe" }],
  internalComponents: [
    { id: "app", type: "App", providedMethods: ["register", "login"], requiredComponents: ["vm1", "vm2", "db"] },
    { id: "worker", type: "Worker", providedMethods: ["report"], requiredComponents: ["app", "cdn", "legacy"] },
  ],
  methods: [
    { id: "login", type: "login" },
    { id: "register", type: "register" },
    { id: "report", type: "report" },
  ],
  nodes: [{ id: "node1", type: "Blade", vms: ["vm1", "vm2"] }],
  clusters: [{ id: "cluster1", type: "HPC", nodes: ["node1"] }],
  racks: [{ id: "rack1", type: "Rack42", nodes: ["node1"] }],
};
