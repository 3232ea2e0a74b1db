import { exports } from "cloudflare:workers";
import { OpenApiContract } from "./openapi-contract";

/** The judge of a test file's answers, read once from the Worker (and itself not judged). */
let contract: OpenApiContract | undefined;

async function theContract(): Promise<OpenApiContract> {
  contract ??= new OpenApiContract(await (await exports.default.fetch("http://service/openapi.json")).json());
  return contract;
}

/**
 * `handle` as a fetch function that checks every answer against the API's OpenAPI document: the
 * one way the API tests reach the Worker, so that the document cannot drift from what it answers.
 */
export function checkedFetch(handle: (request: Request) => Promise<Response>): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await handle(request);
    await (await theContract()).check(request, response);
    return response;
  };
}

/** The Worker as deployed, through its default export. */
export const workerFetch = checkedFetch((request) => exports.default.fetch(request));
