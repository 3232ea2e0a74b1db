import { request } from "./http";

/** GET /v1/metrics/:id/data: the metric's latest consumed data, newest first. */
export function recentData(metric: string, query = ""): Promise<Response> {
  return request("GET", `/v1/metrics/${encodeURIComponent(metric)}/data${query}`);
}

export interface RecentDatum {
  id: string;
  resourceId: string;
  value: number | string;
  timestamp: number;
}

/** The metric's latest data once the consumer has at least `count` of them (it runs after the intake answers). */
export async function waitForData(metric: string, count: number): Promise<RecentDatum[]> {
  for (let tries = 0; tries < 100; tries++) {
    const response = await recentData(metric);
    const data = response.status === 200 ? ((await response.json()) as RecentDatum[]) : [];
    if (data.length >= count) return data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${metric}: fewer than ${count} data after 10 s`);
}
