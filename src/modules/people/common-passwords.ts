/**
 * The breach-style check, offline: the ~49,000 most common passwords of public breach corpora, as
 * zxcvbn-ts ships them (`@zxcvbn-ts/language-common`, "passwords-common"). Imported and built into
 * a Set on the first check, so a start or a CLI command that never sees a password pays nothing.
 */
let common: Promise<Set<string>> | null = null
const breachList = () => (common ??= import('@zxcvbn-ts/language-common').then((m) => new Set(m.dictionary['passwords-common'])))

/** The substitutions every cracking rule set tries first. */
const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i' }
const unleet = (word: string): string => Array.from(word, (c) => LEET[c] ?? c).join('')

/** `word` without the digits and symbols around it ("2024password!!" → "password"): one scan from each end. */
function core(word: string): string {
  const isLetter = (c: string) => /\p{L}/u.test(c)
  let start = 0
  let end = word.length
  while (start < end && !isLetter(word[start]!)) start++
  while (end > start && !isLetter(word[end - 1]!)) end--
  return word.slice(start, end)
}

/** The shortest unit `word` repeats ("dragondragon" → "dragon"), by the KMP failure function: linear. */
function repeatedUnit(word: string): string {
  const fail = new Array<number>(word.length).fill(0)
  for (let i = 1, k = 0; i < word.length; i++) {
    while (k > 0 && word[i] !== word[k]) k = fail[k - 1]!
    if (word[i] === word[k]) k++
    fail[i] = k
  }
  const period = word.length - (fail[word.length - 1] ?? 0)
  return period < word.length && word.length % period === 0 ? word.slice(0, period) : word
}

/** Shorter cores ("abc" inside "1234abc5678") are too weak a signal to refuse a long password on. */
const MIN_CORE = 4

/**
 * Whether `password` is on the breach list, or is a listed password dressed the usual ways: any
 * case, leetspeak, digits or symbols before or after it, or repeated. Linear in the length.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  const listed = await breachList()
  const lower = password.toLowerCase()
  const stripped = core(lower)
  const candidates = [lower, unleet(lower), stripped, unleet(stripped), repeatedUnit(stripped), unleet(repeatedUnit(stripped))]
  return candidates.some((word, i) => (i < 2 || word.length >= MIN_CORE) && listed.has(word))
}
