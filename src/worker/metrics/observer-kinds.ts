/** Serialization formats an observer can ask for, in their canonical spelling. */
export const observerFormats = ["RDF/JSON", "TOWER/JSON", "GRAPHITE", "INFLUXDB"] as const;
export type ObserverFormat = (typeof observerFormats)[number];

/** Transfer protocols an observer can ask for, in their canonical spelling. */
export const observerProtocols = ["HTTP", "TCP", "UDP"] as const;
export type ObserverProtocol = (typeof observerProtocols)[number];
