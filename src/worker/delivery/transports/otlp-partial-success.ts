import { ProtobufReader, wireType } from "../../intake/common/protobuf-reader";

/** ExportMetricsServiceResponse.partial_success, and its rejected_data_points. */
const partialSuccessField = 1;
const rejectedDataPointsField = 1;

function protobufRejected(body: Uint8Array): number {
  const reader = new ProtobufReader(body);
  let rejected = 0;
  while (reader.hasMore()) {
    const field = reader.field();
    const type = reader.type;
    if (field !== partialSuccessField || type !== wireType.lengthDelimited) {
      reader.skip(type);
      continue;
    }
    const outer = reader.enter();
    while (reader.hasMore()) {
      const inner = reader.field();
      const type = reader.type;
      if (inner === rejectedDataPointsField && type === wireType.varint) rejected = reader.varint();
      else reader.skip(type);
    }
    reader.leave(outer);
  }
  return rejected;
}

function jsonRejected(body: Uint8Array): number {
  const answer = JSON.parse(new TextDecoder().decode(body)) as { partialSuccess?: { rejectedDataPoints?: unknown } };
  const rejected = Number(answer?.partialSuccess?.rejectedDataPoints ?? 0);
  return Number.isSafeInteger(rejected) && rejected > 0 ? rejected : 0;
}

/**
 * How many data points an OTLP receiver's success answer says it rejected (its partialSuccess); 0
 * for an empty body, and for one that cannot be read: the receiver took the export.
 */
export function rejectedDataPoints(body: Uint8Array, format: "OTLP" | "OTLP/JSON"): number {
  if (body.length === 0) return 0;
  try {
    return format === "OTLP" ? protobufRejected(body) : jsonRejected(body);
  } catch {
    return 0;
  }
}
