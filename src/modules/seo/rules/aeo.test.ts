import { describe } from 'bun:test'
import { createTestWorld } from '../test-world.ts'
import { E0_HTML, WORLD_DATA } from '../worked-examples.ts'
import { BASE, cases, han, words } from './rule-test-helpers.ts'

const { en, zh } = BASE

describe('aeo rules', () => {
  cases('answer_summary', [
    { name: 'en 20 words passes', input: { ...en, answerSummary: words(20) }, passed: true },
    {
      name: 'en 19 words fails',
      input: { ...en, answerSummary: words(19) },
      passed: false,
      message: 'Answer summary has 19 words; aim for 20–80.',
    },
    { name: 'en 80 words passes', input: { ...en, answerSummary: words(80) }, passed: true },
    { name: 'en 81 words fails', input: { ...en, answerSummary: words(81) }, passed: false },
    { name: 'zh 40 chars passes', input: { ...zh, answerSummary: han(40) }, passed: true },
    {
      name: 'zh 39 chars fails',
      input: { ...zh, answerSummary: han(39) },
      passed: false,
      message: 'Answer summary has 39 characters; aim for 40–160.',
    },
    { name: 'zh 160 chars passes', input: { ...zh, answerSummary: han(160) }, passed: true },
    { name: 'zh 161 chars fails', input: { ...zh, answerSummary: han(161) }, passed: false },
  ])

  cases('key_takeaways', [
    { name: '7 items pass', input: { ...en, keyTakeaways: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }, passed: true },
    {
      name: '8 items fail',
      input: { ...en, keyTakeaways: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] },
      passed: false,
      message: '8 key takeaways; use 3–7 short distinct points.',
    },
    { name: '2 items fail', input: { ...zh, keyTakeaways: ['一', '二'] }, passed: false },
    { name: 'duplicates (case/space) fail', input: { ...en, keyTakeaways: ['Fast  builds', 'fast builds', 'c'] }, passed: false },
    { name: 'blank item fails', input: { ...en, keyTakeaways: ['a', ' ', 'c'] }, passed: false },
    { name: 'en 30-word item passes', input: { ...en, keyTakeaways: [words(30), 'b', 'c'] }, passed: true },
    { name: 'en 31-word item fails', input: { ...en, keyTakeaways: [words(31), 'b', 'c'] }, passed: false },
    { name: 'zh 60-char item passes', input: { ...zh, keyTakeaways: [han(60), '二', '三'] }, passed: true },
    { name: 'zh 61-char item fails', input: { ...zh, keyTakeaways: [han(61), '二', '三'] }, passed: false },
  ])

  const enFaq = (answer: string) => [
    { question: 'Is it fast?', answer },
    { question: 'Is it cheap?', answer: 'Yes, hosting costs very little.' },
  ]
  const zhFaq = (answer: string) => [
    { question: '它快吗？', answer },
    { question: '它便宜吗？', answer: '便宜，托管几乎不用花什么钱。' },
  ]
  cases('faq_present', [
    { name: 'two complete blocks pass', input: en, passed: true },
    {
      name: 'en 4-word answer leaves one complete block',
      input: { ...en, faqBlocks: enFaq(words(4)) },
      passed: false,
      message: '1 complete FAQ block(s); add at least 2.',
    },
    { name: 'zh 9-char answer leaves one', input: { ...zh, faqBlocks: zhFaq(han(9)) }, passed: false },
    { name: 'zh 10-char answer passes', input: { ...zh, faqBlocks: zhFaq(han(10)) }, passed: true },
  ])

  cases('faq_complete', [
    { name: 'no blocks is not applicable', input: { ...en, faqBlocks: [] }, passed: true, message: /^Not applicable:/ },
    { name: 'en 5-word answer passes', input: { ...en, faqBlocks: enFaq(words(5)) }, passed: true },
    {
      name: 'en 4-word answer fails',
      input: { ...en, faqBlocks: enFaq(words(4)) },
      passed: false,
      message: '1 FAQ block(s) incomplete; left out of structured data.',
    },
    { name: 'zh 10-char answer passes', input: { ...zh, faqBlocks: zhFaq(han(10)) }, passed: true },
    { name: 'zh 9-char answer fails', input: { ...zh, faqBlocks: zhFaq(han(9)) }, passed: false },
    { name: 'question without ? fails', input: { ...en, faqBlocks: [{ question: 'Speed', answer: words(6) }] }, passed: false },
    {
      name: 'repeated question fails',
      input: { ...en, faqBlocks: [...enFaq(words(6)), { question: 'is it  FAST?', answer: words(6) }] },
      passed: false,
    },
  ])

  cases('question_headings', [
    { name: 'question mark passes', input: { ...en, contentHtml: '<h2>Speed?</h2>' }, passed: true },
    { name: 'question word passes', input: { ...en, contentHtml: '<h3>Should you migrate</h3>' }, passed: true },
    { name: 'Chinese question word passes', input: { ...zh, contentHtml: '<h2>为什么选择它</h2>' }, passed: true },
    {
      name: 'h4 question does not count',
      input: { ...en, contentHtml: '<h4>Why?</h4>' },
      passed: false,
      message: 'No question-shaped H2/H3.',
    },
    { name: '"Whatever" is not a question word', input: { ...en, contentHtml: '<h2>Whatever works</h2>' }, passed: false },
  ])

  const authors = createTestWorld({
    ...WORLD_DATA,
    authors: [
      { id: 7, status: 1 },
      { id: 8, status: 0 },
    ],
  })
  cases('author_present', [
    { name: 'enabled author passes', input: en, passed: true },
    {
      name: 'disabled author fails',
      world: authors,
      input: { ...en, authorId: 8, author: '' },
      passed: false,
      message: 'No enabled author profile linked.',
    },
    {
      name: 'unknown author with byline fails',
      input: { ...zh, authorId: 99, author: '张三' },
      passed: false,
      message: 'No enabled author profile linked (byline text only).',
    },
  ])

  cases('reviewed_recent', [
    {
      name: '365 days ago passes',
      input: { ...en, reviewedAt: '2025-03-01 00:00:00' },
      passed: true,
      message: 'Last reviewed 2025-03-01, 365 days ago.',
    },
    {
      name: '366 days ago fails',
      input: { ...en, reviewedAt: '2025-02-28 00:00:00' },
      passed: false,
      message: 'Last reviewed 2025-02-28, 366 days ago.',
    },
    { name: 'one day ahead passes', input: { ...zh, reviewedAt: '2026-03-02T00:00:00Z' }, passed: true },
    {
      name: 'more than a day ahead fails',
      input: { ...zh, reviewedAt: '2026-03-02T00:00:01Z' },
      passed: false,
      message: 'Review date is in the future.',
    },
    { name: 'blank fails', input: { ...en, reviewedAt: null }, passed: false, message: 'Not reviewed.' },
    { name: 'garbage fails', input: { ...en, reviewedAt: 'last week' }, passed: false, message: 'Not reviewed.' },
  ])

  cases('citations', [
    { name: 'two hosts pass', input: en, passed: true, message: 'Cites 2 source host(s).' },
    {
      name: 'www. is the same host',
      input: { ...en, contentHtml: '<a href="https://a.org/1">a</a><a href="https://www.a.org/2">b</a>' },
      passed: false,
      message: 'Cites 1 source host(s); cite 2+.',
    },
    {
      name: 'nofollow/sponsored/ugc do not count',
      input: {
        ...zh,
        contentHtml: `${E0_HTML.replace('href="https://gohugo.io/"', 'href="https://gohugo.io/" rel="sponsored noopener"')}`,
      },
      passed: false,
    },
  ])
})
