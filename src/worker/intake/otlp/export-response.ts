/*
 * OTLP/HTTP's answers, in the request's encoding. An accepted export gets an
 * ExportMetricsServiceResponse whose partial_success is left unset when everything was accepted
 * without remark, and is set when data points were rejected or there is a warning
 * (rejected_data_points 0 with a message), as the OTLP specification prescribes. A refused one gets
 * a google.rpc.Status. Fields with their default value are left out, as protobuf writes them.
 */

/** ExportMetricsPartialSuccess. */
export interface PartialSuccess {
  rejectedDataPoints: number;
  errorMessage: string;
}

/** An ExportMetricsServiceResponse as application/json. */
export function exportResponseJson(partial: PartialSuccess | undefined): string {
  if (partial === undefined) return "{}";
  const { rejectedDataPoints, errorMessage } = partial;
  return JSON.stringify({
    partialSuccess: {
      // An int64, which the protobuf JSON mapping writes as a decimal string.
      ...(rejectedDataPoints !== 0 && { rejectedDataPoints: String(rejectedDataPoints) }),
      ...(errorMessage !== "" && { errorMessage }),
    },
  });
}

/** An ExportMetricsServiceResponse as application/x-protobuf. */
export function exportResponseProtobuf(partial: PartialSuccess | undefined): Uint8Array<ArrayBuffer> {
  if (partial === undefined) return new Uint8Array(0);
  const { rejectedDataPoints, errorMessage } = partial;
  const partialSuccess = encodeMessage([
    ...(rejectedDataPoints !== 0 ? [{ number: 1, varint: rejectedDataPoints }] : []),
    ...(errorMessage !== "" ? [{ number: 2, bytes: new TextEncoder().encode(errorMessage) }] : []),
  ]);
  return encodeMessage([{ number: 1, bytes: partialSuccess }]);
}

/**
 * google.rpc.Code for an HTTP status, after the mapping google.rpc.Code documents. OTLP clients do
 * not act on it (the HTTP status decides), but record it.
 */
const rpcCodes = new Map([
  [400, 3], // INVALID_ARGUMENT
  [401, 16], // UNAUTHENTICATED
  [403, 7], // PERMISSION_DENIED
  [404, 5], // NOT_FOUND
  [413, 8], // RESOURCE_EXHAUSTED
  [415, 3], // INVALID_ARGUMENT
  [429, 8], // RESOURCE_EXHAUSTED
  [500, 13], // INTERNAL
  [501, 12], // UNIMPLEMENTED
  [503, 14], // UNAVAILABLE
  [504, 4], // DEADLINE_EXCEEDED
]);

const unknownCode = 2;

function rpcCode(httpStatus: number): number {
  return rpcCodes.get(httpStatus) ?? unknownCode;
}

/** A google.rpc.Status for a refused request, as application/json. */
export function rpcStatusJson(httpStatus: number, message: string): string {
  return JSON.stringify({ code: rpcCode(httpStatus), message });
}

/** A google.rpc.Status for a refused request, as application/x-protobuf. */
export function rpcStatusProtobuf(httpStatus: number, message: string): Uint8Array<ArrayBuffer> {
  return encodeMessage([
    { number: 1, varint: rpcCode(httpStatus) },
    ...(message !== "" ? [{ number: 2, bytes: new TextEncoder().encode(message) }] : []),
  ]);
}

/** A field of the messages above: a non-negative integer (below 2^53), or bytes (a string, an embedded message). */
type Field = { number: number; varint: number } | { number: number; bytes: Uint8Array };

const varintType = 0;
const lengthDelimitedType = 2;

function encodeMessage(fields: readonly Field[]): Uint8Array<ArrayBuffer> {
  const parts = fields.map((field) =>
    "varint" in field
      ? [varint(field.number * 8 + varintType), varint(field.varint)]
      : [varint(field.number * 8 + lengthDelimitedType), varint(field.bytes.length), field.bytes],
  );
  const message = new Uint8Array(parts.flat().reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts.flat()) {
    message.set(part, at);
    at += part.length;
  }
  return message;
}

function varint(value: number): Uint8Array {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}
