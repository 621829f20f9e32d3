import { describe, expect, test } from 'bun:test'
import { countLinks, SPAM_RULES, spamReason } from './spam.ts'

const facts = (content: string, more: Partial<Parameters<typeof spamReason>[0]> = {}) => ({
  authorName: 'Reader',
  content,
  recentFromIp: 0,
  repeatedFromIp: false,
  ...more,
})

describe('spamReason', () => {
  test('an ordinary comment passes, in either language', () => {
    expect(spamReason(facts('Thanks, the part about build speed helped me.'))).toBeNull()
    expect(spamReason(facts('写得很好，构建速度那一节对我很有帮助。'.repeat(5)))).toBeNull()
  })

  test('the per-IP limit counts comments before this one', () => {
    expect(spamReason(facts('ok', { recentFromIp: SPAM_RULES.perIpLimit - 1 }))).toBeNull()
    expect(spamReason(facts('ok', { recentFromIp: SPAM_RULES.perIpLimit }))).toStartWith('rate:')
  })

  test('links: up to the cap is fine, one more is spam', () => {
    expect(countLinks('https://a.example/x?y=1, http://b.example and www.c.example')).toBe(3)
    expect(countLinks('https://www.a.example')).toBe(1)
    expect(spamReason(facts('https://a.example https://b.example'))).toBeNull()
    expect(spamReason(facts('https://a.example https://b.example https://c.example'))).toBe('links: 3 links, at most 2 allowed')
  })

  test('shouting needs enough letters, and Chinese has no case to shout in', () => {
    expect(spamReason(facts('OK, THANKS!'))).toBeNull()
    expect(spamReason(facts('THIS IS ABSOLUTELY THE BEST POST EVER'))).toStartWith('shouting')
    expect(spamReason(facts('I think HTML and CSS and HTTP are NOT hard to learn'))).toBeNull()
  })

  test('phrases match in the name too, in any case', () => {
    expect(spamReason(facts('hello', { authorName: 'Cheap Followers Inc' }))).toBe('phrase: "cheap followers"')
  })

  test('a repeat from the same IP', () => {
    expect(spamReason(facts('same', { repeatedFromIp: true }))).toStartWith('repeat:')
  })
})
