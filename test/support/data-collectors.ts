/** The original's Java App collector's registration body (an app on a VM on AWS, one method), as it sends it. */
export const javaAppRegistration = {
  monitoredResourcesByMetric: {
    ResponseTime: [{ clazz: "Method", type: "register", id: "register_2047568" }],
    EffectiveResponseTime: [{ clazz: "Method", type: "register", id: "register_2047568" }],
    Throughput: [
      { clazz: "Method", type: "register", id: "register_2047568" },
      {
        requiredComponents: ["Frontend1"],
        providedMethods: ["register_2047568"],
        clazz: "InternalComponent",
        type: "App",
        id: "App1",
      },
    ],
  },
  resources: [
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
  ],
  keepAlive: 45,
  configSyncPeriod: 30,
};

/** The stream the original's collectors send a metric's data to, as the last segment of the daUrl. */
export function encodedStream(metric: string): string {
  return encodeURIComponent(`http://www.modaclouds.eu/streams/${metric}`);
}
