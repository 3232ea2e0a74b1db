import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rdfJsonBody } from "../../tools/testing/monitoring-data.ts";
import { type HttpReceiver, startHttpReceiver } from "./support/http-receiver.ts";
import { eventually, type Service, startService } from "./support/service.ts";

interface Redirector {
  url: string;
  hits: number;
  close(): Promise<void>;
}

/** An observer that answers every request with `status` and a Location pointing at `location`. */
async function startRedirector(status: number, location: string): Promise<Redirector> {
  const server: Server = createServer((request, response) => {
    redirector.hits += 1;
    request.resume();
    response.writeHead(status, { location }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const redirector: Redirector = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hits: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return redirector;
}

let service: Service;
let target: HttpReceiver;
const redirectors: Redirector[] = [];

beforeAll(async () => {
  [service, target] = await Promise.all([startService(), startHttpReceiver()]);
});

afterAll(async () => {
  await service?.stop();
  await target?.close();
  await Promise.all(redirectors.map((redirector) => redirector.close()));
});

const redirectStatuses = [301, 302, 303, 307, 308];

describe("HTTP deliveries do not follow redirects", () => {
  it("an observer answering 3xx never makes the service reach the Location; its status shows the failure", async () => {
    const metric = "redirected";
    expect((await service.call("PUT", `/v1/metrics/${metric}`)).status).toBe(201);
    const observers = new Map<number, { redirector: Redirector; id: string }>();
    for (const status of redirectStatuses) {
      const redirector = await startRedirector(status, `${target.url}/stolen`);
      redirectors.push(redirector);
      const body = { format: "TOWER/JSON", callbackUrl: redirector.url };
      const observer = await service.call("POST", `/v1/metrics/${metric}/observers`, body);
      expect(observer.status).toBe(201);
      observers.set(status, { redirector, id: observer.body.id });
    }

    const data = rdfJsonBody([{ id: "r1", metric, timestamp: 1_000, value: 1, resourceId: "vm1" }]);
    expect((await service.call("POST", "/monitoringdata", data)).status).toBe(204);

    for (const [status, { redirector, id }] of observers) {
      const report = await eventually(async () => {
        const current = await service.call("GET", `/v1/metrics/${metric}/observers/${id}`);
        return current.body.status?.dead === 1 ? current.body.status : undefined;
      }, 15_000);
      expect(report).toMatchObject({
        delivered: 0,
        dead: 1,
        lost: 1,
        backlog: 0,
        lastError: `HTTP ${status} from the observer`,
      });
      // Tried for the whole retry schedule (0.2, 0.4, 0.8 s, jittered): the first attempt and one
      // per step, or one more when the jittered steps add up to less than the schedule.
      expect(redirector.hits).toBeGreaterThanOrEqual(4);
      expect(redirector.hits).toBeLessThanOrEqual(5);
      expect(report.failed).toBe(redirector.hits);
    }
    expect(target.attempts).toBe(0);
  });
});
