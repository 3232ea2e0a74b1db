import { expect } from "vitest";
import { type HttpReceiver, startHttpReceiver } from "./http-receiver.ts";
import type { Service } from "./service.ts";

/** A datum as a TOWER/JSON observer receives it. */
export interface TowerDatum {
  resourceId: string;
  metric: string;
  value: number | null;
  timestamp: number;
}

/** A real HTTP observer of `metric` (created if need be) in TOWER/JSON, and what it received so far. */
export interface TowerObserver {
  receiver: HttpReceiver;
  data(): TowerDatum[];
}

export async function observeInTowerJson(service: Service, metric: string): Promise<TowerObserver> {
  const path = `/v1/metrics/${encodeURIComponent(metric)}`;
  expect([200, 201]).toContain((await service.call("PUT", path)).status);
  const receiver = await startHttpReceiver();
  const registered = await service.call("POST", `${path}/observers`, {
    format: "TOWER/JSON",
    callbackUrl: receiver.url,
  });
  expect(registered.status).toBe(201);
  return {
    receiver,
    data: () => receiver.received.flatMap((request) => JSON.parse(request.body) as TowerDatum[]),
  };
}
