import type { FieldSpec } from '../forms.tsx'
import { RecordsPage, type RecordsConfig } from './records.tsx'

const slug: FieldSpec = { key: 'slug', label: 'slug', hint: 'slugHint' }
const sort: FieldSpec = { key: 'sort', label: 'sort', kind: 'number', hint: 'sortHint' }
const ADMIN = '/api/admin/blog'
const API = '/api/v1/blog'

const EN = { value: 'en', label: 'tax.english' } as const
const ZH = { value: 'zh', label: 'tax.chinese' } as const

const CATEGORIES: RecordsConfig = {
  title: 'tax.categories',
  newTitle: 'tax.newCategory',
  listPath: `${ADMIN}/categories`,
  savePath: `${API}/categories/save`,
  fields: [
    { key: 'nameEn', label: 'tax.nameEn', required: true },
    { key: 'nameZh', label: 'tax.nameZh' },
    slug,
    { key: 'descriptionEn', label: 'tax.descriptionEn', kind: 'textarea' },
    { key: 'descriptionZh', label: 'tax.descriptionZh', kind: 'textarea' },
    sort,
  ],
  blank: { nameEn: '', nameZh: '', slug: '', descriptionEn: '', descriptionZh: '', sort: '' },
  nameOf: (r) => [r.nameEn, r.nameZh].filter(Boolean).join(' / '),
}

const TAGS: RecordsConfig = {
  title: 'tax.tags',
  newTitle: 'tax.newTag',
  listPath: `${ADMIN}/tags`,
  savePath: `${API}/tags/save`,
  fields: [
    { key: 'nameEn', label: 'tax.nameEn' },
    { key: 'nameZh', label: 'tax.nameZh' },
    slug,
    {
      key: 'language',
      label: 'tax.language',
      kind: 'choice',
      choices: [{ value: 'all', label: 'tax.languageAll' }, EN, ZH],
    },
  ],
  blank: { nameEn: '', nameZh: '', slug: '', language: 'all' },
  nameOf: (r) => [r.nameEn, r.nameZh].filter(Boolean).join(' / '),
}

const AUTHORS: RecordsConfig = {
  title: 'auth.title',
  newTitle: 'auth.new',
  listPath: `${ADMIN}/authors`,
  savePath: `${API}/authors/save`,
  fields: [
    { key: 'name', label: 'auth.name', required: true },
    {
      key: 'language',
      label: 'tax.language',
      kind: 'choice',
      choices: [EN, ZH],
    },
    slug,
    { key: 'title', label: 'auth.jobTitle' },
    { key: 'bio', label: 'auth.bio', kind: 'textarea' },
    { key: 'avatar', label: 'auth.avatar', kind: 'image' },
    { key: 'credentials', label: 'auth.credentials' },
    { key: 'socialLinks', label: 'auth.socialLinks', kind: 'textarea' },
    sort,
  ],
  blank: { name: '', language: 'en', slug: '', title: '', bio: '', avatar: '', credentials: '', socialLinks: '', sort: '' },
  nameOf: (r) => `${String(r.name)} (${String(r.language)})`,
}

export const Categories = () => <RecordsPage config={CATEGORIES} />
export const Tags = () => <RecordsPage config={TAGS} />
export const Authors = () => <RecordsPage config={AUTHORS} />
