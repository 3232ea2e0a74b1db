import type { Label } from "../../vocabulary/datum";
import type { AnyValue, Attribute, KeyValueList } from "./metrics-model";

/**
 * A number the service writes into a label (a bucket bound, a quantile, a double attribute): the
 * shortest decimal that reads back as the same double, as JavaScript writes it (`0.5`, `1`,
 * `1e+21`, `1e-7`), with Prometheus' names for the values that have no decimal (`+Inf`, `-Inf`,
 * `NaN`). Negative zero is written `0`.
 */
export function numberText(value: number): string {
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function isKeyValueList(value: object): value is KeyValueList {
  return "keyValues" in value;
}

/** Bytes as the protobuf JSON mapping writes them: standard base64 with padding. */
function base64(bytes: Uint8Array): string {
  // In slices: String.fromCharCode takes its characters as arguments, which are limited in number.
  const slice = 8_192;
  let binary = "";
  for (let start = 0; start < bytes.length; start += slice) {
    binary += String.fromCharCode(...bytes.subarray(start, start + slice));
  }
  return btoa(binary);
}

/** A value inside an array or kvlist, as compact JSON; numbers JSON cannot hold are written as strings. */
function jsonText(value: AnyValue): string {
  if (value === undefined) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : JSON.stringify(numberText(value));
  if (value instanceof Uint8Array) return JSON.stringify(base64(value));
  if (isKeyValueList(value)) {
    return `{${value.keyValues.map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`).join(",")}}`;
  }
  return `[${value.map(jsonText).join(",")}]`;
}

/**
 * An attribute value as label text: strings as they are, booleans `true`/`false`, integers in
 * decimal, doubles by `numberText`, bytes in base64, arrays and kvlists as compact JSON, and no
 * value as the empty string.
 */
export function attributeText(value: AnyValue): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return numberText(value);
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value instanceof Uint8Array) return base64(value);
  return jsonText(value);
}

/** Whether every value is a string. An index loop: the array builtins are slow on frozen arrays, which tables share. */
function areLabels(attributes: readonly Attribute[]): attributes is readonly Label[] {
  for (let index = 0; index < attributes.length; index++) if (typeof attributes[index]![1] !== "string") return false;
  return true;
}

/** The attributes as labels: the attributes themselves when every value is a string, as most are. */
export function attributeLabels(attributes: readonly Attribute[]): readonly Label[] {
  return areLabels(attributes) ? attributes : attributes.map(([key, value]) => [key, attributeText(value)]);
}
