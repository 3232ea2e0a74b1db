/*
 * Texts written into bytes after a binary part (a queue message, a block of kept rows): as UTF-8,
 * or as UTF-16 code units when a text holds an unpaired surrogate, which UTF-8 cannot carry and a
 * datum may (JSON can). Little-endian.
 */

export const utf8Texts = 0;
export const utf16Texts = 1;

const nonAscii = /\P{ASCII}/u;
const unpairedSurrogate = /\p{Cs}/u;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 length without encoding: texts of data are mostly ASCII, which a native scan finds. */
export function utf8Length(text: string): number {
  if (!nonAscii.test(text)) return text.length;
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    // Two bytes below U+0800; a surrogate pair is four bytes for two code units; the rest three.
    bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** The texts' encoding and bytes: UTF-8 unless a code unit is an unpaired surrogate. */
function textEncoding(text: string): { encoding: number; bytes: number } {
  if (!nonAscii.test(text)) return { encoding: utf8Texts, bytes: text.length };
  if (unpairedSurrogate.test(text)) return { encoding: utf16Texts, bytes: 2 * text.length };
  return { encoding: utf8Texts, bytes: utf8Length(text) };
}

function writeUtf16(view: DataView, at: number, text: string): void {
  for (let index = 0; index < text.length; index++) view.setUint16(at + 2 * index, text.charCodeAt(index), true);
}

/**
 * Bytes of `textAt` bytes before `text`, the text written: ASCII (the usual) at once, a byte a
 * code unit, which the whole text fits in only when it is ASCII — a scan for other characters
 * would cost several times the encoding; others measured first.
 */
export function bytesWithTexts(
  textAt: number,
  text: string,
): { bytes: Uint8Array; encoding: number; textBytes: number } {
  const ascii = new Uint8Array(textAt + text.length);
  if (utf8Encoder.encodeInto(text, ascii.subarray(textAt)).read === text.length) {
    return { bytes: ascii, encoding: utf8Texts, textBytes: text.length };
  }
  const { encoding, bytes: textBytes } = textEncoding(text);
  const bytes = new Uint8Array(textAt + textBytes);
  if (encoding === utf8Texts) utf8Encoder.encodeInto(text, bytes.subarray(textAt));
  else writeUtf16(new DataView(bytes.buffer), textAt, text);
  return { bytes, encoding, textBytes };
}

/** Whether `textBytes` bytes can be texts in `encoding`. */
export function knownTextEncoding(encoding: number, textBytes: number): boolean {
  return encoding === utf8Texts || (encoding === utf16Texts && textBytes % 2 === 0);
}

function utf16Text(view: DataView, at: number, bytes: number): string {
  const units = new Uint16Array(bytes / 2);
  for (let index = 0; index < units.length; index++) units[index] = view.getUint16(at + 2 * index, true);
  let text = "";
  // In chunks: fromCharCode takes its code units as arguments, and their number is bounded.
  for (let start = 0; start < units.length; start += 8_192) {
    text += String.fromCharCode(...units.subarray(start, start + 8_192));
  }
  return text;
}

/**
 * The texts of `textBytes` bytes at `at` in `bytes`, in `encoding` (see knownTextEncoding);
 * undefined when UTF-8 texts are not UTF-8.
 */
export function textsAt(bytes: Uint8Array, at: number, textBytes: number, encoding: number): string | undefined {
  if (encoding === utf16Texts) {
    return utf16Text(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), at, textBytes);
  }
  try {
    return utf8Decoder.decode(bytes.subarray(at, at + textBytes));
  } catch {
    return undefined;
  }
}
