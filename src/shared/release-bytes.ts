/**
 * Frees a buffer's bytes now instead of at the garbage collector's next pass. A request body lives
 * outside the JavaScript heap, and the collector frees it only once it collects the object holding
 * it, so a busy isolate would hold every body it has read since its last collection. Detaching the
 * buffer (`transfer(0)`) drops its memory at once; every view of it reads as empty afterwards, so
 * only a buffer nothing reads any more may be released. Where the runtime has no `transfer`
 * (Node 20, the relay's), the collector frees it as before.
 */
export function releaseBytes(buffer: ArrayBufferLike): void {
  if (buffer instanceof ArrayBuffer) (buffer as { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}

/**
 * What `read` makes of a body's bytes, the bytes released once read, whether `read` succeeded or
 * not. `read` must keep no view of them.
 */
export function readThenRelease<T>(body: Uint8Array, read: (body: Uint8Array) => T): T {
  try {
    return read(body);
  } finally {
    releaseBytes(body.buffer);
  }
}
