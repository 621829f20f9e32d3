import type { Language } from '../../../../shared/language.ts'

/** The fields the editor and the stored post (`BlogWriterPostRes`) hold alike. */
interface PostFields {
  language: Language
  title: string
  slug: string
  authorId: number | null
  author: string
  coverImage: string
  coverAlt: string
  summary: string
  answerSummary: string
  faqBlocks: { question: string; answer: string }[]
  relatedProductIds: string
  seoTitle: string
  seoDescription: string
  canonicalUrl: string
  robots: string
  indexable: boolean
  ogTitle: string
  ogDescription: string
  ogImage: string
  alternateSlug: string
  status: number
}

/** The editor's fields as the author edits them: lists as text where a textarea edits them. */
export interface PostForm extends PostFields {
  id: number | null
  version: number | null
  categoryId: number | null
  tagIds: number[]
  bodyFormat: 'markdown' | 'html'
  body: string
  keyTakeaways: string
  reviewedAt: string
}

/** The stored post as the admin read answers it (`BlogWriterPostRes`), the fields the editor uses. */
export interface StoredPost extends PostFields {
  id: number
  version: number
  categoryId: number
  tags: { id: number }[]
  contentHtml: string
  keyTakeaways: string[]
  reviewedAt: string | null
  seoScore: number
  aeoScore: number
  scheduledAt: string | null
  updatedTime: string
}

export const emptyForm = (language: Language = 'en'): PostForm => ({
  id: null,
  version: null,
  language,
  title: '',
  slug: '',
  categoryId: null,
  tagIds: [],
  authorId: null,
  author: '',
  coverImage: '',
  coverAlt: '',
  bodyFormat: 'markdown',
  body: '',
  summary: '',
  keyTakeaways: '',
  answerSummary: '',
  faqBlocks: [],
  relatedProductIds: '',
  seoTitle: '',
  seoDescription: '',
  canonicalUrl: '',
  robots: '',
  indexable: true,
  ogTitle: '',
  ogDescription: '',
  ogImage: '',
  reviewedAt: '',
  alternateSlug: '',
  status: 0,
})

/** A stored post in the editor: its body is stored as HTML, so it is edited as HTML. */
export const formOf = (post: StoredPost): PostForm => ({
  ...emptyForm(post.language),
  ...Object.fromEntries(Object.keys(emptyForm()).flatMap((k) => (k in post ? [[k, post[k as keyof StoredPost]]] : []))),
  tagIds: post.tags.map((tag) => tag.id),
  bodyFormat: 'html',
  body: post.contentHtml,
  keyTakeaways: post.keyTakeaways.join('\n'),
  faqBlocks: post.faqBlocks.map(({ question, answer }) => ({ question, answer })),
  reviewedAt: post.reviewedAt ?? '',
})

/** The form as a save or check request (spec §2.2), the body as Markdown or HTML as the author writes it. */
export function requestOf(form: PostForm): Record<string, unknown> {
  const { bodyFormat, body, version: _version, keyTakeaways, reviewedAt, ...rest } = form
  return {
    ...rest,
    id: form.id ?? undefined,
    [bodyFormat === 'markdown' ? 'contentMarkdown' : 'contentHtml']: body,
    keyTakeaways: keyTakeaways
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    faqBlocks: form.faqBlocks.filter((f) => f.question.trim() || f.answer.trim()).map((f, i) => ({ ...f, sortOrder: i + 1 })),
    reviewedAt: reviewedAt.trim() || null,
  }
}

/** The fields the check can judge yet: it needs the spec's required ones. */
export const checkable = (form: PostForm) => form.title.trim() !== '' && form.categoryId !== null && form.body.trim() !== ''

/** The fields that differ between two forms (a conflict's rows), the bookkeeping ones left out. */
export const differingFields = (a: PostForm, b: PostForm): (keyof PostForm)[] =>
  (Object.keys(a) as (keyof PostForm)[]).filter((k) => k !== 'version' && k !== 'id' && JSON.stringify(a[k]) !== JSON.stringify(b[k]))

/** Unsaved edits, kept in this browser until saved: a closed tab or a crash loses nothing. */
const draftKey = (id: number | null, language: Language) => `folio.editor.draft.${id ?? `new-${language}`}`

export const localDrafts = {
  read(id: number | null, language: Language): PostForm | null {
    try {
      const raw = localStorage.getItem(draftKey(id, language))
      return raw ? (JSON.parse(raw) as PostForm) : null
    } catch {
      return null
    }
  },
  write(form: PostForm): void {
    localStorage.setItem(draftKey(form.id, form.language), JSON.stringify(form))
  },
  clear(id: number | null, language: Language): void {
    localStorage.removeItem(draftKey(id, language))
  },
}

/** The taxonomy the editor's selects offer. */
export interface Taxonomy {
  categories: { id: number; nameEn: string; nameZh: string }[]
  tags: { id: number; nameEn: string; nameZh: string }[]
  authors: { id: number; name: string }[]
}

export interface StepProps {
  form: PostForm
  set: (patch: Partial<PostForm>) => void
  taxonomy: Taxonomy
}
