/**
 * A value per key, made by `make` the first time the key is asked for and kept as long as the
 * memo is (a value of `undefined` or `null` counts as made). What a memo may outlive is its
 * maker's business: a read snapshot's memo dies with its transaction.
 */
export function memo<K, V>(): (key: K, make: () => V) => V {
  const made = new Map<K, V>()
  return (key, make) => {
    if (!made.has(key)) made.set(key, make())
    return made.get(key)!
  }
}
