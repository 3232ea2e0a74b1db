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

/** GET /resources after uploading the reference model: arrays sorted by id, relationships as given. */
export const referenceModelStored = {
  cloudProviders: [{ id: "amazon", type: "IaaS" }],
  internalComponents: referenceModel.internalComponents,
  methods: [
    { id: "mic1-answerQuestions", type: "answerQuestions" },
    { id: "mic1-register", type: "register" },
    { id: "mic1-saveAnswers", type: "saveAnswers" },
  ],
  vMs: [{ id: "frontend1", type: "Frontend", cloudProvider: "amazon", numberOfCPUs: 2 }],
};

export const emptyModel = { cloudProviders: [], internalComponents: [], methods: [], vMs: [] };
