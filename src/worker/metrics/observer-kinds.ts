/** Formats that TCP and UDP observers can take too: text a byte stream or datagrams carry. */
export const streamFormats = ["RDF/JSON", "TOWER/JSON", "GRAPHITE", "INFLUXDB"] as const;
export type StreamFormat = (typeof streamFormats)[number];

/** Formats of metric backends, sent over HTTP only. */
export const backendFormats = ["PROMETHEUS", "OTLP", "OTLP/JSON"] as const;

/** Serialization formats an observer can ask for, in their canonical spelling. */
export const observerFormats = [...streamFormats, ...backendFormats] as const;
export type ObserverFormat = (typeof observerFormats)[number];

export function isStreamFormat(format: ObserverFormat): format is StreamFormat {
  return (streamFormats as readonly string[]).includes(format);
}

/** Transfer protocols an observer can ask for, in their canonical spelling. */
export const observerProtocols = ["HTTP", "TCP", "UDP"] as const;
export type ObserverProtocol = (typeof observerProtocols)[number];
