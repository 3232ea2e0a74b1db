import { afterAll, expect, it } from "vitest";
import { referenceModel, referenceModelStored } from "../support/model.ts";
import { type Service, startService } from "./support/service.ts";

let service: Service | undefined;

afterAll(async () => {
  await service?.stop();
});

it("keeps the model across a restart on the same on-disk state", async () => {
  service = await startService();
  expect(await service.call("PUT", "/v1/resources", referenceModel)).toEqual({ status: 204, body: undefined });
  const before = await service.call("GET", "/v1/resources");
  expect(before).toEqual({ status: 200, body: referenceModelStored });

  await service.restart();

  expect(await service.call("GET", "/v1/resources")).toEqual(before);
  expect(await service.call("GET", "/resources/mic1")).toEqual({
    status: 200,
    body: { clazz: "InternalComponent", ...referenceModel.internalComponents[0] },
  });
});
