import type { FieldProblem, ProblemBody } from "./api-types";
import { storedToken } from "./session";

/** An answer that is not a success, as its problem document tells it; status 0 when the service was not reached. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly detail: string;
  readonly errors: readonly FieldProblem[];

  constructor(status: number, detail: string, errors: readonly FieldProblem[] = []) {
    super(detail);
    this.name = "ApiProblem";
    this.status = status;
    this.detail = detail;
    this.errors = errors;
  }

  /** The token is missing, not valid, or not an admin's. */
  get refusesToken(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

export interface CallOptions {
  body?: string;
  contentType?: string;
  accept?: string;
  /** The bearer token to send; by default the session's, `null` for none. */
  token?: string | null;
}

async function problemOf(response: Response): Promise<ApiProblem> {
  const fallback = `The service answered ${response.status} ${response.statusText}.`.replace(" .", ".");
  try {
    const body = (await response.json()) as ProblemBody;
    return new ApiProblem(response.status, body.detail ?? body.title ?? fallback, body.errors ?? []);
  } catch {
    return new ApiProblem(response.status, fallback);
  }
}

/** A request to the API; resolves with a successful answer, rejects with an ApiProblem. */
export async function callApi(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers();
  const token = options.token === undefined ? storedToken() : options.token;
  if (token) headers.set("authorization", `Bearer ${token}`);
  if (options.contentType) headers.set("content-type", options.contentType);
  headers.set("accept", options.accept ?? "application/json");
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: options.body, cache: "no-store" });
  } catch (error) {
    throw new ApiProblem(0, `The service could not be reached (${error instanceof Error ? error.message : error}).`);
  }
  if (!response.ok) throw await problemOf(response);
  return response;
}

export async function getJson<T>(path: string, options: CallOptions = {}): Promise<T> {
  return (await (await callApi("GET", path, options)).json()) as T;
}

/** A JSON body sent with `method`; the answer's JSON, or undefined for an empty answer. */
export async function sendJson<T>(method: string, path: string, body?: unknown): Promise<T | undefined> {
  const response = await callApi(method, path, {
    ...(body === undefined ? {} : { body: JSON.stringify(body), contentType: "application/json" }),
  });
  const text = await response.text();
  return text ? (JSON.parse(text) as T) : undefined;
}

/** The answer, or undefined when what it reads is gone (404): e.g. an observer deleted since it was listed. */
export async function unlessGone<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 404) return undefined;
    throw error;
  }
}
