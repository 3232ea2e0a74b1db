import type { RefusedPart } from "../common/series";

/*
 * The answer to an accepted OTLP export: an ExportMetricsServiceResponse, whose partial_success is
 * left unset when everything was accepted without remark, and is set when data points were
 * rejected or there is a warning (rejected_data_points 0 with a message), as the OTLP
 * specification prescribes. Fields with their default value are omitted, as protobuf writes them.
 */

/** ExportMetricsPartialSuccess. */
export interface PartialSuccess {
  rejectedDataPoints: number;
  errorMessage: string;
}

/** The partial success for a request that rejected `rejectedDataPoints` for the reasons `refused`; undefined for a full success. */
export function partialSuccess(
  rejectedDataPoints: number,
  refused: readonly RefusedPart[],
): PartialSuccess | undefined {
  if (rejectedDataPoints === 0 && refused.length === 0) return undefined;
  return { rejectedDataPoints, errorMessage: refused.map(({ message }) => message).join("; ") };
}

/** The response as application/json. */
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

/** The response as application/x-protobuf. */
export function exportResponseProtobuf(partial: PartialSuccess | undefined): Uint8Array {
  if (partial === undefined) return new Uint8Array(0);
  const { rejectedDataPoints, errorMessage } = partial;
  const message = new TextEncoder().encode(errorMessage);
  const fields: number[] = [];
  if (rejectedDataPoints !== 0) fields.push(tag(1, varintType), ...varint(rejectedDataPoints));
  if (message.length > 0) fields.push(tag(2, lengthDelimitedType), ...varint(message.length));
  const head = [tag(1, lengthDelimitedType), ...varint(fields.length + message.length), ...fields];
  const response = new Uint8Array(head.length + message.length);
  response.set(head);
  response.set(message, head.length);
  return response;
}

const varintType = 0;
const lengthDelimitedType = 2;

function tag(field: number, type: number): number {
  return field * 8 + type;
}

/** A non-negative integer below 2^53 as a varint. */
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}
