/** The part of Map and WeakMap that `getOrCreate` needs. */
interface KeyedStore<K, V> {
  has(key: K): boolean;
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The value `map` holds for `key`, created with `create` and stored on first use. */
export function getOrCreate<K, V>(map: KeyedStore<K, V>, key: K, create: (key: K) => V): V {
  if (map.has(key)) return map.get(key) as V;
  const value = create(key);
  map.set(key, value);
  return value;
}
