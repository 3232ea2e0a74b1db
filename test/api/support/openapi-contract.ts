import { dereference, type OutputUnit, type Schema, validate } from "@cfworker/json-schema";

/*
 * The API's own OpenAPI document as the judge of its answers: every response a test sees must be
 * one the document describes for its route, method and status, with a body that its schema
 * accepts. A route, status or field the document does not know fails the test that met it.
 */

interface MediaType {
  schema?: Schema;
}

interface DocumentedResponse {
  content?: Record<string, MediaType>;
}

type Operations = Record<string, { responses: Record<string, DocumentedResponse> }>;

/** A path item: its operations by method, and the servers it has when not the document's. */
type PathItem = Operations & { servers?: { url: string }[] };

interface OpenApiDocument {
  servers: { url: string }[];
  paths: Record<string, PathItem>;
}

/** The static files at the root: the dashboard's page and files, the reference page's scripts. */
const staticFile = /^\/(ui\/.*|_docs\/.*)?$/;

/** Names the document, so that its "#/components/..." references resolve inside it. */
const documentUri = "https://tower-edge.invalid/openapi.json";

/**
 * The server a request path is under (one of the document's: /v1 or /), and the path below it,
 * without a trailing slash: the service serves `/metrics/` as `/metrics`.
 */
function splitServer(pathname: string): { server: string; path: string } {
  const [, prefix, path] = /^(\/v1)?(\/.*?)\/?$/.exec(pathname)!;
  return prefix ? { server: prefix, path: path || "/" } : { server: "/", path: path || "/" };
}

const jsonMediaType = /^application\/([\w.-]+\+)?json$/;

function pointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function mediaTypeOf(response: Response): string | undefined {
  return response.headers.get("content-type")?.replace(/;.*/s, "").trim().toLowerCase();
}

/** `/metrics/{id}` → a pattern matching one request path segment per parameter. */
function templatePattern(template: string): RegExp {
  const segments = template.split(/\{[^}]+\}/).map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${segments.join("[^/]+")}$`);
}

export class OpenApiContract {
  private readonly document: OpenApiDocument;
  private readonly templates: { template: string; pattern: RegExp; servers: string[] }[];
  /** Every schema of the document by its URI, marked as the validator needs: built once, for every check. */
  private lookup: Record<string, Schema | boolean> | undefined;
  /** By pointer into the document: a schema that refers to the one there. */
  private readonly roots = new Map<string, Schema>();

  /** `document`: the API's document, as /openapi.json serves it. */
  constructor(document: object) {
    this.document = document as OpenApiDocument;
    this.templates = Object.entries(this.document.paths).map(([template, item]) => ({
      template,
      pattern: templatePattern(template),
      servers: (item.servers ?? this.document.servers).map(({ url }) => url),
    }));
  }

  /**
   * Throws, naming the request, unless `response` is an answer the document describes. The static
   * files served beside the API (the dashboard's, the reference page's) are not judged: the
   * document leaves them out.
   */
  async check(request: Request, response: Response): Promise<void> {
    if (staticFile.test(new URL(request.url).pathname)) return;
    const what = `${request.method} ${new URL(request.url).pathname} → ${response.status}`;
    const problems = await this.problemsOf(request, response);
    if (problems.length > 0) throw new Error(`${what} is not as the OpenAPI document says: ${problems.join("; ")}`);
  }

  private async problemsOf(request: Request, response: Response): Promise<string[]> {
    const { server, path } = splitServer(new URL(request.url).pathname);
    const template = this.templates.find(
      (candidate) => candidate.servers.includes(server) && candidate.pattern.test(path),
    )?.template;
    const method = request.method === "HEAD" ? "get" : request.method.toLowerCase();
    const operations = template === undefined ? undefined : this.document.paths[template];
    const body = request.method === "HEAD" ? undefined : () => response.clone().json();
    if (!operations?.[method]) return this.problemsOfRefusal(response, body, operations);
    const status = String(response.status);
    const documented = operations[method].responses[status];
    if (!documented) return [`${method.toUpperCase()} ${template} documents no ${status}`];
    const mediaType = mediaTypeOf(response);
    if (!documented.content) return mediaType === undefined ? [] : [`${status} is documented without a body`];
    if (mediaType === undefined || !documented.content[mediaType]) {
      return [`${status} is not documented as ${mediaType ?? "an empty body"}`];
    }
    if (!body || !jsonMediaType.test(mediaType)) return [];
    const pointer = ["paths", template!, method, "responses", status, "content", mediaType, "schema"];
    return this.schemaProblems(`#/${pointer.map(pointerToken).join("/")}`, await body());
  }

  /**
   * A path the document does not have, or a method it does not document on the path: the answer
   * must be a problem (404, 405, or a refusal that comes before routing), and a 405 must offer
   * the methods the document has.
   */
  private async problemsOfRefusal(
    response: Response,
    body: (() => Promise<unknown>) | undefined,
    operations: Operations | undefined,
  ): Promise<string[]> {
    if (mediaTypeOf(response) !== "application/problem+json") {
      return ["an undocumented route answered without a problem"];
    }
    const problems = body ? this.schemaProblems("#/components/schemas/Problem", await body()) : [];
    if (response.status === 405) {
      const methods = Object.keys(operations ?? {})
        .filter((key) => key !== "servers")
        .map((method) => method.toUpperCase());
      if (methods.includes("GET")) methods.push("HEAD");
      const allowed = methods.toSorted().join(", ");
      if (response.headers.get("allow") !== allowed) problems.push(`Allow is not "${allowed}"`);
    }
    return problems;
  }

  /** The problems @cfworker/json-schema finds in `value` under the schema at `pointer`. */
  schemaProblems(pointer: string, value: unknown): string[] {
    // The validator marks the schemas it is given: it works on a copy of the document, once.
    this.lookup ??= dereference({ ...(structuredClone(this.document) as Schema), $id: documentUri });
    let root = this.roots.get(pointer);
    if (!root) {
      root = { $ref: `${documentUri}${pointer}` };
      // Marks the reference with the URI it resolves to, as a validator of `root` alone would.
      dereference(root);
      this.roots.set(pointer, root);
    }
    return validate(value, root, "2020-12", this.lookup, false).errors.map(
      (error: OutputUnit) => `${error.instanceLocation}: ${error.error}`,
    );
  }
}
