import { z } from "zod";
import { didYouMean } from "../../shared/near-miss";
import { limitQuerySchema } from "../http/limit-query";
import type { DeliveryStatus, ObserverState } from "../vocabulary/delivery";
import { attemptsKept } from "./kept-entries";
import { isStreamFormat, observerFormats, observerProtocols } from "./observer-kinds";

/**
 * One of `values`, matched without regard to case and returned in its canonical spelling; a value
 * near one of them (`influx`) is refused with the one probably meant.
 */
function caseInsensitiveEnum<const Value extends string>(values: readonly Value[], what: string) {
  const canonical = new Map(values.map((value) => [value.toLowerCase(), value]));
  const message = `The ${what} must be one of ${values.join(", ")} (in any case)`;
  return z
    .string(`${message}.`)
    .meta({ description: `One of ${values.join(", ")}, in any letter case.`, examples: [...values] })
    .transform((value, ctx): Value => {
      const match = canonical.get(value.toLowerCase());
      if (match === undefined) {
        const hint = didYouMean(value, values);
        ctx.issues.push({ code: "custom", message: `${message}${hint === "" ? "." : hint}`, input: value });
        return z.NEVER;
      }
      return match;
    });
}

const observerStates = ["active", "paused"] as const;

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

const ipv6Characters = /^[0-9a-f:.]+$/i;

/**
 * The host in the form the WHATWG URL parser gives it: lower case, IPv6 compressed and without
 * brackets, IPv4 in dotted-quad form even when written as `127.1` or `0x7f.1`. One spelling per
 * address keeps registration idempotent, and lets an address check see the real IP. Undefined
 * when `input` is neither an IP literal nor a DNS host name.
 */
function canonicalHost(input: string): string | undefined {
  const ipv6 = /^\[(.*)\]$/.exec(input)?.[1] ?? (input.includes(":") ? input : undefined);
  if (ipv6 !== undefined ? !ipv6Characters.test(ipv6) : !z.regexes.hostname.test(input)) return undefined;
  const url = parseUrl(`http://${ipv6 !== undefined ? `[${ipv6}]` : input}/`);
  return url?.hostname.replace(/^\[(.*)\]$/, "$1");
}

const callbackUrlMessage = "The callbackUrl must be an absolute http or https URL.";

const callbackUrlSchema = z
  .string("The callbackUrl must be a string.")
  .max(2_048, "The callbackUrl must be at most 2048 characters long.")
  .meta({
    format: "uri",
    description: "An absolute http or https URL of at most 2048 characters; HTTP observers only.",
  })
  .transform((value, ctx) => {
    const url = parseUrl(value);
    if (url?.protocol !== "http:" && url?.protocol !== "https:") {
      ctx.issues.push({ code: "custom", message: callbackUrlMessage, input: value });
      return z.NEVER;
    }
    return url.href;
  });

const observerHostMessage = "The observerHost must be an IP address or a DNS host name.";

const observerHostSchema = z
  .string("The observerHost must be a string.")
  .max(253, "The observerHost must be at most 253 characters long.")
  .meta({
    description: "An IP address (IPv6 with or without brackets) or a DNS host name; TCP and UDP observers only.",
  })
  .transform((value, ctx) => {
    const host = canonicalHost(value);
    if (host === undefined) {
      ctx.issues.push({ code: "custom", message: observerHostMessage, input: value });
      return z.NEVER;
    }
    return host;
  });

/** HTTP observers are reached at a callbackUrl, TCP and UDP observers at observerHost:observerPort. */
const addressFields = ["callbackUrl", "observerHost", "observerPort"] as const;

/**
 * Which address fields belong depends on the protocol, so they are checked only on an object whose
 * protocol is valid (or defaulted); the other problems of the body are reported either way.
 */
function hasValidProtocol(payload: z.core.ParsePayload): boolean {
  const isObject = typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value);
  return isObject && !payload.issues.some((issue) => issue.path?.[0] === "protocol");
}

const portMessage = "The observerPort must be an integer from 1 to 65535.";

export const observerPortSchema = z.int(portMessage).min(1, portMessage).max(65_535, portMessage);

/** A secret of the observer's own, or "generate" for one the service makes (and returns once). */
const secretSchema = z
  .union(
    [
      z.literal("generate"),
      z
        .string("The secret must be a string.")
        .min(16, 'The secret must be at least 16 characters long (or "generate").')
        .max(128, "The secret must be at most 128 characters long."),
    ],
    { error: 'The secret must be a string of 16 to 128 characters, or "generate".' },
  )
  .meta({
    writeOnly: true,
    description: 'Signs HTTP deliveries (Standard Webhooks); never returned. "generate" makes one, answered once.',
  });

/** Headers the service sets itself, or that only describe a connection, may not be given. */
const reservedHeader =
  /^(host|content-type|content-length|transfer-encoding|connection|keep-alive|te|trailer|upgrade|proxy-.*|webhook-.*|user-agent|tower-edge-via)$/i;
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII and spaces or tabs inside, as a header field value may hold.
const headerValue = /^[\t\x20-\x7e]*$/;

/** Extra request headers of an HTTP observer's deliveries, e.g. the Authorization its receiver needs. */
export const headersSchema = z
  .record(
    z
      .string()
      .regex(headerName, "A header name must be a token (letters, digits and !#$%&'*+.^_`|~-).")
      .max(256, "A header name must be at most 256 characters long.")
      .refine((name) => !reservedHeader.test(name), "This header is set by the service and may not be given."),
    z
      .string("A header value must be a string.")
      .max(8_192, "A header value must be at most 8192 characters long.")
      .regex(headerValue, "A header value may hold visible ASCII characters, spaces and tabs only."),
  )
  .refine((headers) => Object.keys(headers).length <= 32, "At most 32 headers may be given.")
  .meta({
    writeOnly: true,
    description: "Extra request headers of HTTP deliveries (e.g. Authorization); never returned.",
  });

/** The fields of an observer's target, which per-metric and selector observers share. */
export const observerTargetFields = {
  format: caseInsensitiveEnum(observerFormats, "format").default("RDF/JSON"),
  protocol: caseInsensitiveEnum(observerProtocols, "protocol").default("HTTP"),
  callbackUrl: callbackUrlSchema.optional(),
  observerHost: observerHostSchema.optional(),
  observerPort: observerPortSchema.optional().meta({ description: "TCP and UDP observers only." }),
  secret: secretSchema.optional(),
  headers: headersSchema.optional(),
};

type ObserverTargetBody = z.output<z.ZodObject<typeof observerTargetFields>>;

/** The address fields and headers that go with the protocol; checked only once the protocol is valid. */
export function checkTargetFields<Schema extends z.ZodType<ObserverTargetBody>>(schema: Schema): Schema {
  return schema.superRefine(
    (body, ctx) => {
      if (body.headers !== undefined && body.protocol !== "HTTP") {
        ctx.addIssue({ code: "custom", path: ["headers"], message: "Headers only apply to HTTP observers." });
      }
      if (typeof body.format === "string" && !isStreamFormat(body.format) && body.protocol !== "HTTP") {
        const message = `The format ${body.format} is a metrics backend's, sent over HTTP only.`;
        ctx.addIssue({ code: "custom", path: ["protocol"], message });
      }
      for (const field of addressFields) {
        const present = body[field] !== undefined;
        const belongs = (field === "callbackUrl") === (body.protocol === "HTTP");
        if (belongs === present) continue;
        const rule = belongs ? "is required" : "is not allowed";
        const message = `The ${field} ${rule} when protocol is ${body.protocol}.`;
        ctx.addIssue({ code: "custom", path: [field], message });
      }
    },
    { when: hasValidProtocol },
  );
}

/**
 * Body of POST /metrics/:id/observers, parsed into the observer's target: canonical format and
 * protocol, normalised address. Where an observer may send to (the address policy) is not decided
 * here; it is checked on this parsed target.
 */
export const observerRegistrationSchema = checkTargetFields(z.strictObject(observerTargetFields)).meta({
  id: "ObserverRegistration",
  description:
    "HTTP observers need a callbackUrl; TCP and UDP observers need an observerHost and observerPort instead. " +
    "Registering the same format, protocol and address again answers the existing observer.",
});

/** What an observer asks to be sent, and where: the parsed registration. */
export type ObserverRegistration = z.output<typeof observerRegistrationSchema>;

/** A registered observer as the API shows it: its secret and headers never leave the service. */
export type PublicObserver = Omit<ObserverRegistration, "secret" | "headers"> & { id: string; state: ObserverState };

/** Body of PATCH /metrics/:id/observers/:oid: what to change, at least one thing. */
export const observerChangeSchema = z
  .strictObject({
    state: z
      .enum(observerStates, {
        error: (issue) => {
          const hint = typeof issue.input === "string" ? didYouMean(issue.input, observerStates) : "";
          return `The state must be "active" or "paused"${hint === "" ? "." : hint}`;
        },
      })
      .optional()
      .meta({ description: "paused holds deliveries in the backlog; active resumes them (also a disabled observer)." }),
    secret: secretSchema.nullable().optional().meta({
      description:
        'A new secret (the old one keeps signing beside it for a while), "generate", or null to stop signing.',
    }),
    headers: headersSchema.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "Name at least one of state, secret and headers.")
  .meta({ id: "ObserverChange", description: "What to change in an observer; at least one field." });

/** A PATCH as the metric's object applies it: a generated secret is made before. */
export type ObserverChange = Omit<z.output<typeof observerChangeSchema>, "secret"> & { secret?: string | null };

/**
 * How an HTTP observer's deliveries go out: signed or not, and the names of the extra headers they
 * carry. Neither the secret nor a header's value is ever shown.
 */
export interface HttpDressing {
  signed: boolean;
  headerNames: string[];
}

export type ObserverReport = PublicObserver & { status: DeliveryStatus } & Partial<HttpDressing>;

/**
 * The address an observer is reached at, one string per destination: the callback URL for HTTP,
 * `host:port` (IPv6 in brackets) otherwise. Registration is idempotent on format, protocol and this.
 */
export function observerAddress({ callbackUrl, observerHost, observerPort }: ObserverRegistration): string {
  if (callbackUrl !== undefined) return callbackUrl;
  return `${observerHost?.includes(":") ? `[${observerHost}]` : observerHost}:${observerPort}`;
}

/** Query of GET …/attempts: how many of the latest attempts. */
export const attemptsQuerySchema = limitQuerySchema(attemptsKept, 50);

const instant = (field: string) =>
  z.iso
    .datetime({ offset: true, error: `The ${field} must be an ISO 8601 date and time, e.g. 2026-01-31T12:00:00Z.` })
    .transform((text) => Date.parse(text))
    .optional();

/** Body of POST …/replay: the dead data accepted within this range, both ends optional. */
export const replayRangeSchema = z
  .strictObject({ since: instant("since"), until: instant("until") })
  .refine(({ since, until }) => since === undefined || until === undefined || since <= until, {
    message: "The since must not be after the until.",
    path: ["since"],
  })
  .meta({
    id: "ReplayRange",
    description: "Dead data accepted within this range go back to the backlog; both ends optional.",
  });
