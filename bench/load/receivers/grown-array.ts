type TypedArray = Float64Array | Uint32Array | Uint8Array;

/**
 * `array`, or a copy of it grown by doubling to hold `length` elements (at most `cap`): the bench's
 * records grow with a case, and doubling keeps the copies few.
 */
export function grownToHold<Array extends TypedArray>(
  array: Array,
  length: number,
  cap = Number.POSITIVE_INFINITY,
): Array {
  if (length <= array.length) return array;
  let grown = Math.max(array.length, 1);
  while (grown < length) grown *= 2;
  const result = new (array.constructor as new (length: number) => Array)(Math.min(grown, cap));
  result.set(array);
  return result;
}
