import type { Config } from "../config";
import type { Delivery, DeliveryResult } from "./delivery";
import { deliverOverHttp } from "./http-delivery";
import { deliverViaRelay } from "./relay-client";

/** Runs deliveries concurrently: HTTP ones from the Worker, TCP and UDP ones through the relay. */
export async function executeDeliveries(deliveries: Delivery[], config: Config): Promise<DeliveryResult[]> {
  const overHttp = deliveries.filter((delivery) => delivery.target.protocol === "HTTP");
  const viaRelay = deliveries.filter((delivery) => delivery.target.protocol !== "HTTP");
  const [httpResults, relayResults] = await Promise.all([
    Promise.all(overHttp.map((delivery) => deliverOverHttp(delivery, config.DELIVERY_TIMEOUT_MS))),
    viaRelay.length > 0 ? deliverViaRelay(viaRelay, config) : Promise.resolve([]),
  ]);
  return [...httpResults, ...relayResults];
}
