import { both, defineRule, fail, pass } from '../rule.ts'

/** Links the author vouches for: paid, user-generated and nofollow links are not sources. */
const NOT_ENDORSED = /\b(?:nofollow|sponsored|ugc)\b/i

export const citations = defineRule({
  code: 'citations',
  step: 'aeo',
  targetField: 'contentHtml',
  weight: 2,
  blocking: false,
  thresholds: both({ minHosts: 2 }),
  why: 'Verifiable claims.',
  fixAction: 'Link primary sources.',
  autoFixType: null,
  judge({ links }, { minHosts }) {
    const hosts = new Set<string>()
    for (const link of links) {
      if (link.kind === 'external' && !NOT_ENDORSED.test(link.rel)) hosts.add(link.host)
    }
    if (hosts.size >= minHosts) return pass(`Cites ${hosts.size} source host(s).`)
    return fail(`Cites ${hosts.size} source host(s); cite ${minHosts}+.`)
  },
})
