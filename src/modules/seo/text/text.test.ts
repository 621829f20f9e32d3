import { describe, expect, test } from 'bun:test'
import { isUsableAlt } from './alt.ts'
import { fleschReadingEase, syllables } from './flesch.ts'
import { languageSample } from './language-sample.ts'
import { isPassive } from './passive.ts'
import { sentenceEnds, splitSentences } from './sentences.ts'
import { classifyLink } from './urls.ts'
import { charWidth, collapseWhitespace, fieldLength, isCjkLetter, units, width, wordRuns } from './units.ts'

describe('units u(text)', () => {
  test('English counts words joined by apostrophes, dots and hyphens', () => {
    expect(units("Don't use node.js for e-mail, it’s 2026!")).toBe(7)
    expect(wordRuns('v1.2 -- a.b. end')).toEqual(['v1.2', 'a.b', 'end'])
  })
  test('Chinese counts characters; punctuation is not a letter', () => {
    expect(units('我们先读文档，再挑选最合适的工具。')).toBe(15)
    expect(units('参考 Hugo 文档、Eleventy')).toBe(6)
    expect(units('用Docker部署')).toBe(4)
    expect(units('ひらがなカタカナ한글')).toBe(10)
  })
  test('CJK letters', () => {
    expect(['字', 'あ', 'ア', '한', '，', '。', 'a'].map(isCjkLetter)).toEqual([true, true, true, true, false, false, false])
  })
  test('field length counts code points after collapsing whitespace', () => {
    expect(fieldLength('  a \n\t b  ')).toBe(3)
    expect(fieldLength('𠀀😀')).toBe(2)
    // A lone surrogate is a code point of its own, as spreading the string counts it.
    expect(fieldLength('\uD800\uD800\uDC00 \uDC00')).toBe(4)
    expect(['a\u00a0b', 'a  b', 'a\u3000b', ' a b '].map(collapseWhitespace)).toEqual(['a b', 'a b', 'a b', 'a b'])
  })
  test('width counts CJK letters and full-width forms as 2', () => {
    expect(width('2026 年如何选择合适的静态网站生成器')).toBe(35)
    expect(['，', '！', 'Ａ', 'a', '字'].map(charWidth)).toEqual([2, 2, 2, 1, 2])
  })
})

describe('sentences', () => {
  test('en splits after terminators followed by space or end; closing quotes stay', () => {
    expect(splitSentences('He said "Go." Then left! Version 1.2 is out… ok', 'en').map((s) => s.text)).toEqual([
      'He said "Go."',
      'Then left!',
      'Version 1.2 is out…',
      'ok',
    ])
  })
  test('zh also splits after 。！？ without a space; sentences without units are dropped', () => {
    expect(splitSentences('我们读文档。再挑选！“真的吗？”好 ...', 'zh').map((s) => s.text)).toEqual([
      '我们读文档。',
      '再挑选！',
      '“真的吗？”',
      '好 ...',
    ])
    expect(splitSentences('我们读文档。再挑选！', 'en').length).toBe(1)
    expect(splitSentences('... !!! ', 'en')).toEqual([])
  })

  // The regexes of the first version, kept as the oracle: the scan must find exactly their splits.
  const CLOSERS = `"'”’」』）)\\]`
  const ORACLE = {
    en: new RegExp(`[.!?…]+[${CLOSERS}]*(?=\\s|$)`, 'gu'),
    zh: new RegExp(`(?:[.!?…]+[${CLOSERS}]*(?=\\s|$))|(?:[。！？…]+[${CLOSERS}]*)`, 'gu'),
  }
  test('the linear scan splits exactly where the §2 regexes split (20,000 random short blocks)', () => {
    const alphabet = ['.', '!', '?', '…', '。', '！', '？', '"', ')', '”', '」', ' ', '\n', 'a', '字', '\u3000']
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let k = 0; k < 20_000; k++) {
      let block = ''
      for (let i = Math.floor(random() * 14); i > 0; i--) block += alphabet[Math.floor(random() * alphabet.length)]
      for (const language of ['en', 'zh'] as const) {
        const expected = [...block.matchAll(ORACLE[language])].map((m) => m.index + m[0].length)
        expect([block, sentenceEnds(block, language)]).toEqual([block, expected])
      }
    }
  })
})

describe('Flesch', () => {
  test('syllable rules', () => {
    expect(['the', 'team', 'reads', 'table', 'make', 'rhythm', '2026', 'beautiful', 'queue'].map(syllables)).toEqual([
      1, 1, 1, 2, 1, 1, 1, 3, 1,
    ])
    // Letters only, lower-cased: what is not a-z joins the groups around it (İ and the Kelvin sign lower-case to i and k).
    expect(['co-op', 'A.E', 'MAKE', 'tab-le', 'İe', '\u212AATE', 'café', 'naïve'].map(syllables)).toEqual([1, 1, 1, 2, 1, 1, 1, 1])
  })
  test('F scores above 100 and clamps', () => {
    expect(fleschReadingEase(splitSentences('The team reads the docs and picks the best tool.', 'en'))).toBe(100)
    expect(fleschReadingEase([])).toBeNull()
  })
  test('one decimal', () => {
    // 10 words, 13 syllables: 206.835 − 1.015·10 − 84.6·1.3 = 86.705
    expect(fleschReadingEase(splitSentences('The team reads the docs and picks the best generators.', 'en'))).toBe(86.7)
  })
})

describe('passive voice', () => {
  test('en forms of be/get + participle, optional -ly adverb', () => {
    expect(isPassive('The post was quickly written.', 'en')).toBe(true)
    expect(isPassive('It gets sold out.', 'en')).toBe(true)
    expect(isPassive('The team wrote the post.', 'en')).toBe(false)
  })
  test('zh 被 but not 被子/被褥', () => {
    expect(isPassive('文档被删除了。', 'zh')).toBe(true)
    expect(isPassive('新被子和被褥。', 'zh')).toBe(false)
  })
})

describe('language sample', () => {
  test('Han letters and Latin runs', () => {
    expect(languageSample('2026 年如何 use Docker 部署')).toEqual({ han: 5, latin: 2 })
  })
})

describe('links', () => {
  const site = 'https://blog.example.com'
  const self = 'https://blog.example.com/en/blog/me'
  const kind = (href: string) => classifyLink(href, site, self).kind
  test('classes of §2', () => {
    expect(kind('/en/blog/other')).toBe('internal')
    expect(kind('other')).toBe('internal')
    expect(kind('https://www.blog.example.com/x')).toBe('internal')
    expect(kind('https://gohugo.io/')).toBe('external')
    expect(kind('//gohugo.io/')).toBe('external')
    expect(kind('#top')).toBe('other')
    expect(kind('mailto:a@b.c')).toBe('other')
    expect(kind('TEL:123')).toBe('other')
    expect(kind('javascript:void(0)')).toBe('other')
    expect(kind('/en/blog/me#part')).toBe('other')
    expect(kind('ftp://files.example.org/')).toBe('other')
    expect(classifyLink('https://www.11ty.dev/docs', site, self).host).toBe('11ty.dev')
  })
})

describe('alt text', () => {
  test('usable alt', () => {
    expect(isUsableAlt('A chart', 125)).toBe(true)
    expect(isUsableAlt(undefined, 125)).toBe(false)
    expect(isUsableAlt('photo.JPG ', 125)).toBe(false)
    expect(isUsableAlt('a'.repeat(61), 60)).toBe(false)
  })
})
