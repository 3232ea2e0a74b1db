import { beforeAll, describe, expect, it } from "vitest";
import type { FieldProblem } from "../../src/shared/problems";
import { expectProblem, prefixes, request, sendJson, validationProblem } from "./support/http";
import { addObserver, declareMetric, listObservers, observersPath, uuid } from "./support/metrics";

const metric = "validated";
const detail = "The request has problems; see errors.";

const formatMessage =
  "The format must be one of RDF/JSON, TOWER/JSON, GRAPHITE, INFLUXDB, PROMETHEUS, OTLP, OTLP/JSON (in any case).";
const protocolMessage = "The protocol must be one of HTTP, TCP, UDP (in any case).";
const urlMessage = "The callbackUrl must be an absolute http or https URL.";
const hostMessage = "The observerHost must be an IP address or a DNS host name.";
const portMessage = "The observerPort must be an integer from 1 to 65535.";
const tcp = { protocol: "TCP", observerPort: 2003 };
const http = { callbackUrl: "http://a.example/" };

beforeAll(async () => {
  await declareMetric(metric);
});

/** Posts a body that must be rejected with exactly `errors`, and checks that no observer was added. */
async function expectRejected(body: unknown, errors: FieldProblem[], prefix = ""): Promise<void> {
  const before = await listObservers(metric);
  const response = await sendJson("POST", observersPath(metric, prefix), body);
  await expectProblem(response, 400, validationProblem(detail, errors));
  expect(await listObservers(metric)).toEqual(before);
}

describe.each(prefixes)("observer bodies under %o", (prefix) => {
  it.each<[string, unknown, FieldProblem[]]>([
    [
      "HTTP without callbackUrl",
      {},
      [{ path: "/callbackUrl", message: "The callbackUrl is required when protocol is HTTP." }],
    ],
    [
      "HTTP with observerHost and observerPort",
      { callbackUrl: "http://a.example/", observerHost: "a.example", observerPort: 80 },
      [
        { path: "/observerHost", message: "The observerHost is not allowed when protocol is HTTP." },
        { path: "/observerPort", message: "The observerPort is not allowed when protocol is HTTP." },
      ],
    ],
    [
      "TCP without observerHost and observerPort",
      { protocol: "TCP" },
      [
        { path: "/observerHost", message: "The observerHost is required when protocol is TCP." },
        { path: "/observerPort", message: "The observerPort is required when protocol is TCP." },
      ],
    ],
    [
      "UDP without observerPort",
      { protocol: "udp", observerHost: "10.0.0.1" },
      [{ path: "/observerPort", message: "The observerPort is required when protocol is UDP." }],
    ],
    [
      "TCP with callbackUrl",
      { ...tcp, observerHost: "10.0.0.1", callbackUrl: "http://a.example/" },
      [{ path: "/callbackUrl", message: "The callbackUrl is not allowed when protocol is TCP." }],
    ],
    ["an unknown format", { format: "XML", ...http }, [{ path: "/format", message: formatMessage }]],
    ["a format that is not a string", { format: 1, ...http }, [{ path: "/format", message: formatMessage }]],
    // Which address fields belong depends on the protocol, so an unknown protocol is the only problem.
    ["an unknown protocol", { protocol: "SMTP", ...http }, [{ path: "/protocol", message: protocolMessage }]],
    ["an unknown field", { ...http, priority: 1 }, [{ path: "/priority", message: "Unknown field." }]],
    [
      "a misspelt field, with the one probably meant",
      { ...http, fromat: "GRAPHITE" },
      [{ path: "/fromat", message: 'Unknown field; did you mean "format"?' }],
    ],
    [
      "a secret of 15 characters",
      { ...http, secret: "x".repeat(15) },
      [{ path: "/secret", message: 'The secret must be at least 16 characters long (or "generate").' }],
    ],
    [
      "a secret of 129 characters",
      { ...http, secret: "x".repeat(129) },
      [{ path: "/secret", message: "The secret must be at most 128 characters long." }],
    ],
    [
      "a secret that is not a string",
      { ...http, secret: 1234567890123456 },
      [{ path: "/secret", message: 'The secret must be a string of 16 to 128 characters, or "generate".' }],
    ],
    ["an array", [], [{ path: "", message: "Invalid input: expected object, received array" }]],
    [
      "several problems at once",
      {
        format: "CSV",
        protocol: "UDP",
        observerHost: "not_a_host",
        observerPort: 0,
        callbackUrl: "ftp://a.example/",
        extra: true,
      },
      [
        { path: "/format", message: formatMessage },
        { path: "/callbackUrl", message: urlMessage },
        { path: "/observerHost", message: hostMessage },
        { path: "/observerPort", message: portMessage },
        { path: "/extra", message: "Unknown field." },
        { path: "/callbackUrl", message: "The callbackUrl is not allowed when protocol is UDP." },
      ],
    ],
  ])("rejects %s", async (_, body, errors) => {
    await expectRejected(body, errors, prefix);
  });

  it.each(["relative/path", "/hook", "ftp://a.example/", "mailto:a@example.com", "http//a.example", ""])(
    "rejects the callbackUrl %o",
    async (callbackUrl) => {
      await expectRejected({ callbackUrl }, [{ path: "/callbackUrl", message: urlMessage }], prefix);
    },
  );

  it("rejects a callbackUrl that is not a string", async () => {
    const errors = [{ path: "/callbackUrl", message: "The callbackUrl must be a string." }];
    await expectRejected({ callbackUrl: 42 }, errors, prefix);
  });

  it.each([
    "",
    "bad_host",
    "two words",
    "-leading.example",
    "trailing-.example",
    `${"a".repeat(64)}.example`,
    "a.example/path",
    "999.1.1.1",
    "1.2.3.4.5",
    "[10.0.0.1]",
    "[::1",
    "::g",
    "[::1]:2003",
  ])("rejects the observerHost %o", async (observerHost) => {
    await expectRejected({ ...tcp, observerHost }, [{ path: "/observerHost", message: hostMessage }], prefix);
  });

  it.each([0, 65_536, -1, 20.5, "2003", null])("rejects the observerPort %o", async (observerPort) => {
    const body = { protocol: "UDP", observerHost: "10.0.0.1", observerPort };
    await expectRejected(body, [{ path: "/observerPort", message: portMessage }], prefix);
  });

  it("rejects a body that is not JSON, and a non-JSON content type", async () => {
    const malformed = await request("POST", observersPath(metric, prefix), {
      body: '{"callbackUrl":',
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ type: "urn:tower-edge:problem:malformed-json" });
    const notJson = await request("POST", observersPath(metric, prefix), {
      body: "callbackUrl=http://a.example/",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(415);
    expect(await listObservers(metric)).toEqual([]);
  });

  it("rejects an invalid metric name in the path before looking at the body", async () => {
    await expectProblem(
      await sendJson("POST", `${prefix}/metrics/a%00b/observers`, { format: "nope" }),
      400,
      validationProblem("The metric name in the path is not valid.", [
        { path: "/id", message: "metric name must not contain control characters" },
      ]),
    );
  });
});

describe("accepted observer addresses", () => {
  it.each([
    ["example.com", "example.com"],
    ["My-Relay.Example.ORG", "my-relay.example.org"],
    ["localhost", "localhost"],
    ["192.168.0.10", "192.168.0.10"],
    ["0x7f.1", "127.0.0.1"],
    ["::1", "::1"],
    ["[FE80::0:1]", "fe80::1"],
    ["2001:DB8::8:800:200C:417A", "2001:db8::8:800:200c:417a"],
    ["::ffff:192.0.2.1", "::ffff:c000:201"],
  ])("accepts the observerHost %o, stored as %o", async (observerHost, stored) => {
    const created = await addObserver(metric, { protocol: "UDP", observerHost, observerPort: 65_535 });
    expect(created).toEqual({
      id: uuid,
      format: "RDF/JSON",
      protocol: "UDP",
      observerHost: stored,
      observerPort: 65_535,
      state: "active",
    });
    await request("DELETE", `${observersPath(metric)}/${created.id}`);
  });

  it.each([
    ["http://a.example", "http://a.example/"],
    ["HTTPS://A.Example:443/Hook?x=1#frag", "https://a.example/Hook?x=1#frag"],
    ["http://[::1]:8080/hook", "http://[::1]:8080/hook"],
    ["http://user:pass@10.0.0.1/hook", "http://user:pass@10.0.0.1/hook"],
  ])("accepts the callbackUrl %o, stored as %o", async (callbackUrl, stored) => {
    const created = await addObserver(metric, { callbackUrl });
    expect(created).toEqual({ id: uuid, format: "RDF/JSON", protocol: "HTTP", callbackUrl: stored, state: "active" });
    await request("DELETE", `${observersPath(metric)}/${created.id}`);
  });

  it("accepts secrets of 16 and 128 characters", async () => {
    for (const secret of ["x".repeat(16), "y".repeat(128)]) {
      const created = await addObserver(metric, { callbackUrl: `http://secret-${secret.length}.example/`, secret });
      await request("DELETE", `${observersPath(metric)}/${created.id}`);
    }
  });
});

describe("observer address lengths", () => {
  const longUrl = (length: number) => `http://a.example/${"p".repeat(length - "http://a.example/".length)}`;
  const longHost = (length: number) => `${`${"a".repeat(62)}.`.repeat(4)}${"b".repeat(length - 252)}`;

  it("accepts a callbackUrl of 2,048 characters and an observerHost of 253", async () => {
    for (const body of [{ callbackUrl: longUrl(2_048) }, { ...tcp, observerHost: longHost(253) }]) {
      const created = await addObserver(metric, body);
      await request("DELETE", `${observersPath(metric)}/${created.id}`);
    }
  });

  it("rejects a callbackUrl of 2,049 characters", async () => {
    await expectRejected({ callbackUrl: longUrl(2_049) }, [
      { path: "/callbackUrl", message: "The callbackUrl must be at most 2048 characters long." },
    ]);
  });

  it("rejects an observerHost of 254 characters", async () => {
    await expectRejected({ ...tcp, observerHost: longHost(254) }, [
      { path: "/observerHost", message: "The observerHost must be at most 253 characters long." },
    ]);
  });
});

describe("observer headers", () => {
  const reserved = "This header is set by the service and may not be given.";

  it.each([
    "webhook-id",
    "Webhook-Signature",
    "host",
    "Content-Type",
    "content-length",
    "user-agent",
    "proxy-authorization",
  ])("rejects the header %o, which the service sets", async (name) => {
    await expectRejected({ ...http, headers: { [name]: "x" } }, [{ path: `/headers/${name}`, message: reserved }]);
  });

  it.each<[string, Record<string, unknown>, FieldProblem[]]>([
    [
      "a name that is not a token",
      { "x header": "1" },
      [{ path: "/headers/x header", message: "A header name must be a token (letters, digits and !#$%&'*+.^_`|~-)." }],
    ],
    [
      "a value with a line break",
      { "x-tenant": "a\r\nx-injected: 1" },
      [
        {
          path: "/headers/x-tenant",
          message: "A header value may hold visible ASCII characters, spaces and tabs only.",
        },
      ],
    ],
    [
      "a value that is not a string",
      { "x-count": 1 },
      [{ path: "/headers/x-count", message: "A header value must be a string." }],
    ],
    [
      "more than 32 headers",
      Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`x-h${index}`, "1"])),
      [{ path: "/headers", message: "At most 32 headers may be given." }],
    ],
  ])("rejects headers with %s", async (_, headers, errors) => {
    await expectRejected({ ...http, headers }, errors);
  });

  it("rejects headers for a TCP or UDP observer", async () => {
    for (const protocol of ["TCP", "UDP"]) {
      await expectRejected({ ...tcp, protocol, observerHost: "10.0.0.1", headers: { authorization: "Bearer t" } }, [
        { path: "/headers", message: "Headers only apply to HTTP observers." },
      ]);
    }
  });

  it("accepts headers of an HTTP observer and never shows them", async () => {
    const headers = { Authorization: "Bearer receiver-token-0123", "x-tenant": "tenant-1" };
    const response = await sendJson("POST", observersPath(metric), { callbackUrl: "http://headers.example/", headers });
    const created = await response.json<Record<string, unknown>>();
    expect(response.status).toBe(201);
    expect(created).toEqual({
      id: uuid,
      format: "RDF/JSON",
      protocol: "HTTP",
      callbackUrl: "http://headers.example/",
      state: "active",
    });
    const shown = [
      await (await request("GET", observersPath(metric))).text(),
      await (await request("GET", `${observersPath(metric)}/${created.id}`)).text(),
    ];
    for (const text of shown) expect(text).not.toMatch(/receiver-token|tenant-1|"headers"/);
    await request("DELETE", `${observersPath(metric)}/${created.id}`);
  });
});
