import type { ApiError } from "../../../shared/problems";
import { rpcStatusJson, rpcStatusProtobuf } from "./export-response";

export const protobufType = "application/x-protobuf";
export const jsonType = "application/json";

/** OTLP/HTTP's two encodings, named by the request's Content-Type. */
export type Encoding = "protobuf" | "json";

export function encodingOf(contentType: string | undefined | null): Encoding | undefined {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType === protobufType) return "protobuf";
  if (mediaType === jsonType) return "json";
  return undefined;
}

/** An error as OTLP answers it: a google.rpc.Status in the request's encoding (JSON when it has none). */
export function statusAnswer(encoding: Encoding) {
  return (error: ApiError): Response => {
    const headers = { ...error.headers };
    return encoding === "protobuf"
      ? new Response(rpcStatusProtobuf(error.status, error.message), {
          status: error.status,
          headers: { ...headers, "content-type": protobufType },
        })
      : new Response(rpcStatusJson(error.status, error.message), {
          status: error.status,
          headers: { ...headers, "content-type": jsonType },
        });
  };
}
