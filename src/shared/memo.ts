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

/**
 * A memo of a pure function that lives as long as the process: it keeps the `limit` keys asked
 * for most recently, so what it holds stays bounded whatever the inputs.
 */
export function recentMemo<K, V>(limit: number): (key: K, make: () => V) => V {
  const made = new Map<K, V>()
  return (key, make) => {
    const value = made.has(key) ? made.get(key)! : make()
    // Re-inserted, the key becomes the newest; the oldest goes once the memo is full.
    made.delete(key)
    made.set(key, value)
    if (made.size > limit) made.delete(made.keys().next().value!)
    return value
  }
}
