import type { Language } from '../../shared/language.ts'

/** The search page's words, per language. `{n}` is the number of posts found. */
export const SEARCH_WORDS: Record<
  Language,
  Record<'title' | 'label' | 'submit' | 'idle' | 'needsScript' | 'found' | 'none' | 'searching' | 'failed', string>
> = {
  en: {
    title: 'Search',
    label: 'Search the posts',
    submit: 'Search',
    idle: 'Type one or more words.',
    needsScript: 'Search runs in your browser and needs JavaScript.',
    found: '{n} posts found.',
    none: 'No post found.',
    searching: 'Searching…',
    failed: 'The search index could not be loaded; try again.',
  },
  zh: {
    title: '搜索',
    label: '搜索文章',
    submit: '搜索',
    idle: '输入一个或多个词。',
    needsScript: '搜索在浏览器中运行，需要启用 JavaScript。',
    found: '找到 {n} 篇文章。',
    none: '没有找到文章。',
    searching: '正在搜索…',
    failed: '无法加载搜索索引，请重试。',
  },
}
