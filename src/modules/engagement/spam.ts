/**
 * Obvious-spam rules for anonymous comments: pure, so they are tested on their own and the
 * verb only gathers the facts (what this IP posted recently) inside its transaction.
 */
export const SPAM_RULES = {
  /** The per-IP posting limit: comments beyond it inside the window are rejected. */
  perIpLimit: 5,
  perIpWindowMinutes: 10,
  /** Links allowed in one comment; one more and it is rejected. */
  maxLinks: 2,
  /** Identical content from the same IP inside this window is a repeat. */
  repeatWindowHours: 24,
  /** Shouting: at least this many cased letters, and at least this share of them upper case. */
  shoutingMinLetters: 20,
  shoutingUpperShare: 0.9,
  /**
   * Rejected spam is kept for admins this many days, and at most this many rows (the newest):
   * older rows are pruned as new spam arrives, so a flood stores a bounded amount (docs/security.md).
   */
  keptDays: 7,
  keptRows: 1000,
} as const

/** Phrases no genuine comment on a blog post needs; matched case-insensitively. */
export const SPAM_PHRASES = [
  'viagra',
  'cialis',
  'casino',
  'payday loan',
  'buy followers',
  'cheap followers',
  'crypto giveaway',
  'double your bitcoin',
  'make money fast',
  'earn money from home',
  'replica watches',
  'seo services',
  'buy backlinks',
  'click here to claim',
] as const

export interface CommentFacts {
  authorName: string
  content: string
  /** Comments this IP posted inside the per-IP window, before this one. */
  recentFromIp: number
  /** Whether this IP posted the same content inside the repeat window. */
  repeatedFromIp: boolean
}

const LINK = /(?:https?:\/\/|\bwww\.)[^\s<>"']+/gi

export const countLinks = (text: string): number => text.match(LINK)?.length ?? 0

function isShouting(text: string): boolean {
  const cased = text.match(/[\p{Lu}\p{Ll}]/gu) ?? []
  if (cased.length < SPAM_RULES.shoutingMinLetters) return false
  const upper = cased.filter((c) => c !== c.toLowerCase()).length
  return upper / cased.length >= SPAM_RULES.shoutingUpperShare
}

/** Why a comment is rejected as spam (shown to admins only), or null when it may await moderation. */
export function spamReason(facts: CommentFacts): string | null {
  if (facts.recentFromIp >= SPAM_RULES.perIpLimit)
    return `rate: more than ${SPAM_RULES.perIpLimit} comments from this IP in ${SPAM_RULES.perIpWindowMinutes} minutes`
  if (facts.repeatedFromIp) return `repeat: the same content from this IP within ${SPAM_RULES.repeatWindowHours} hours`
  const links = countLinks(facts.content)
  if (links > SPAM_RULES.maxLinks) return `links: ${links} links, at most ${SPAM_RULES.maxLinks} allowed`
  if (countLinks(facts.authorName) > 0) return 'links: a link in the author name'
  const text = `${facts.authorName}\n${facts.content}`.toLowerCase()
  const phrase = SPAM_PHRASES.find((p) => text.includes(p))
  if (phrase) return `phrase: "${phrase}"`
  if (isShouting(facts.content)) return 'shouting: the comment is in capitals'
  return null
}
