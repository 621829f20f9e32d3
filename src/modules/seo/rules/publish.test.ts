import { describe } from 'bun:test'
import { createTestWorld } from '../test-world.ts'
import { WORLD_DATA } from '../worked-examples.ts'
import { BASE, cases } from './rule-test-helpers.ts'

const { en, zh } = BASE
const history = createTestWorld({
  ...WORLD_DATA,
  posts: [
    { id: 100, language: 'en', slug: 'existing-post', previousSlugs: ['old-post'] },
    { id: 200, language: 'zh', slug: 'existing-zh' },
    { id: 201, language: 'zh', slug: 'deleted-zh', deleted: true },
  ],
})

describe('publish rules', () => {
  cases('duplicate_slug', [
    { name: 'free slug passes', world: history, input: en, passed: true },
    {
      name: 'slug of another post fails',
      world: history,
      input: { ...en, slug: 'existing-post' },
      passed: false,
      message: 'Slug "existing-post" is already used by post 100.',
    },
    { name: 'previous slug of another post fails', world: history, input: { ...en, slug: 'old-post' }, passed: false },
    { name: 'its own slug passes', world: history, input: { ...en, id: 100, slug: 'existing-post' }, passed: true },
    { name: 'same slug in the other language passes', world: history, input: { ...zh, slug: 'existing-post' }, passed: true },
    { name: 'deleted post frees its slug', world: history, input: { ...zh, slug: 'deleted-zh' }, passed: true },
  ])

  cases('noindex_warning', [
    { name: 'indexable passes', input: en, passed: true },
    {
      name: 'indexable=false fails',
      input: { ...en, indexable: false },
      passed: false,
      message: 'Post is noindex and will not be discoverable.',
    },
    { name: 'robots noindex fails', input: { ...zh, robots: 'NOINDEX, follow' }, passed: false },
    { name: 'robots index,follow passes', input: { ...zh, robots: 'index,follow' }, passed: true },
    { name: 'null indexable means true', input: { ...en, indexable: null }, passed: true },
  ])
})
