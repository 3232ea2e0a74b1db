const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A request body's text, or undefined when its bytes are not UTF-8. Bytes that are not UTF-8 are
 * refused rather than replaced by U+FFFD, which would silently change what a client sent (a metric
 * name, an id). A leading byte-order mark, which some editors write, is no part of the text.
 */
export function utf8BodyText(bytes: ArrayBuffer | Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
