import { SEO_DESCRIPTION_LENGTH } from '../../../seo/rules/seo-description-length.ts'
import { SEO_TITLE_WIDTH } from '../../../seo/rules/seo-title-length.ts'
import { TITLE_LENGTH } from '../../../seo/rules/title-length.ts'
import { COVER_ALT_LIMITS } from '../../../seo/rules/cover-alt.ts'
import { currentLang, t, type Key } from '../i18n.ts'
import { fieldId, SelectField, TextField } from './fields.tsx'
import type { StepProps } from './form.ts'
import { Content } from './content-step.tsx'
import type { Step } from './live-check.ts'

const name = (item: { nameEn: string; nameZh: string }) => (currentLang() === 'zh' ? item.nameZh || item.nameEn : item.nameEn)

function Basic({ form, set, taxonomy }: StepProps) {
  const l = form.language
  return (
    <>
      <SelectField
        name="language"
        label="fLanguage"
        value={l}
        options={[
          { value: 'en', label: 'English' },
          { value: 'zh', label: '中文' },
        ]}
        onChange={(v) => set({ language: v as 'en' | 'zh' })}
      />
      <TextField
        name="title"
        label="fTitle"
        lang={l}
        value={form.title}
        onInput={(title) => set({ title })}
        counter={{ unit: 'chars', range: TITLE_LENGTH[l] }}
      />
      <TextField name="slug" label="fSlug" value={form.slug} onInput={(slug) => set({ slug })} />
      <SelectField
        name="categoryId"
        label="fCategory"
        value={String(form.categoryId ?? '')}
        options={[{ value: '', label: '—' }, ...taxonomy.categories.map((c) => ({ value: String(c.id), label: name(c) }))]}
        onChange={(v) => set({ categoryId: v ? Number(v) : null })}
      />
      <fieldset id={fieldId('tagIds')}>
        <legend>{t('fTags')}</legend>
        {taxonomy.tags.map((tag) => (
          <label class="check" key={tag.id}>
            <input
              type="checkbox"
              checked={form.tagIds.includes(tag.id)}
              onChange={() =>
                set({ tagIds: form.tagIds.includes(tag.id) ? form.tagIds.filter((id) => id !== tag.id) : [...form.tagIds, tag.id] })
              }
            />{' '}
            {name(tag)}
          </label>
        ))}
      </fieldset>
      <SelectField
        name="authorId"
        label="fAuthor"
        value={String(form.authorId ?? '')}
        options={[{ value: '', label: '—' }, ...taxonomy.authors.map((a) => ({ value: String(a.id), label: a.name }))]}
        onChange={(v) => set({ authorId: v ? Number(v) : null })}
      />
      <TextField name="author" label="fAuthorText" value={form.author} onInput={(author) => set({ author })} />
      <TextField name="coverImage" label="fCover" type="url" value={form.coverImage} onInput={(coverImage) => set({ coverImage })} />
      <TextField
        name="coverAlt"
        label="fCoverAlt"
        lang={l}
        value={form.coverAlt}
        onInput={(coverAlt) => set({ coverAlt })}
        counter={{ unit: 'chars', range: { max: COVER_ALT_LIMITS[l].maxLength } }}
      />
    </>
  )
}

function Seo({ form, set }: StepProps) {
  const l = form.language
  return (
    <>
      <TextField name="summary" label="fSummary" lang={l} multiline value={form.summary} onInput={(summary) => set({ summary })} />
      <TextField
        name="seoTitle"
        label="fSeoTitle"
        lang={l}
        value={form.seoTitle}
        onInput={(seoTitle) => set({ seoTitle })}
        counter={{ unit: 'width', range: SEO_TITLE_WIDTH[l] }}
      />
      <TextField
        name="seoDescription"
        label="fSeoDescription"
        lang={l}
        multiline
        value={form.seoDescription}
        onInput={(seoDescription) => set({ seoDescription })}
        counter={{ unit: 'chars', range: SEO_DESCRIPTION_LENGTH[l] }}
      />
      <TextField
        name="canonicalUrl"
        label="fCanonical"
        type="url"
        value={form.canonicalUrl}
        onInput={(canonicalUrl) => set({ canonicalUrl })}
      />
      <TextField name="robots" label="fRobots" value={form.robots} onInput={(robots) => set({ robots })} />
      <label class="check">
        <input
          id={fieldId('indexable')}
          type="checkbox"
          checked={form.indexable}
          onChange={(e) => set({ indexable: e.currentTarget.checked })}
        />{' '}
        {t('fIndexable')}
      </label>
      <TextField name="ogTitle" label="fOgTitle" lang={l} value={form.ogTitle} onInput={(ogTitle) => set({ ogTitle })} />
      <TextField
        name="ogDescription"
        label="fOgDescription"
        lang={l}
        multiline
        value={form.ogDescription}
        onInput={(ogDescription) => set({ ogDescription })}
      />
      <TextField name="ogImage" label="fOgImage" type="url" value={form.ogImage} onInput={(ogImage) => set({ ogImage })} />
    </>
  )
}

function Aeo({ form, set }: StepProps) {
  const l = form.language
  const setFaq = (i: number, patch: Partial<{ question: string; answer: string }>) =>
    set({ faqBlocks: form.faqBlocks.map((f, j) => (i === j ? { ...f, ...patch } : f)) })
  return (
    <>
      <TextField
        name="answerSummary"
        label="fAnswer"
        lang={l}
        multiline
        value={form.answerSummary}
        onInput={(answerSummary) => set({ answerSummary })}
      />
      <TextField
        name="keyTakeaways"
        label="fTakeaways"
        lang={l}
        multiline
        value={form.keyTakeaways}
        onInput={(keyTakeaways) => set({ keyTakeaways })}
      />
      <fieldset>
        <legend>{t('fFaq')}</legend>
        {form.faqBlocks.map((f, i) => (
          <div class="faq" key={i}>
            <TextField name={`faq-${i}-q`} label="fQuestion" lang={l} value={f.question} onInput={(question) => setFaq(i, { question })} />
            <TextField
              name={`faq-${i}-a`}
              label="fAnswerText"
              lang={l}
              multiline
              value={f.answer}
              onInput={(answer) => setFaq(i, { answer })}
            />
            <button type="button" onClick={() => set({ faqBlocks: form.faqBlocks.filter((_, j) => j !== i) })}>
              {t('removeFaq')} {i + 1}
            </button>
          </div>
        ))}
        <button
          type="button"
          id={fieldId('faqBlocks')}
          onClick={() => set({ faqBlocks: [...form.faqBlocks, { question: '', answer: '' }] })}
        >
          {t('addFaq')}
        </button>
      </fieldset>
      <TextField name="reviewedAt" label="fReviewed" value={form.reviewedAt} onInput={(reviewedAt) => set({ reviewedAt })} />
    </>
  )
}

export const STEPS: { step: Step; label: Key; body: (props: StepProps) => preact.JSX.Element }[] = [
  { step: 'basic', label: 'stepBasic', body: Basic },
  { step: 'content', label: 'stepContent', body: Content },
  { step: 'seo', label: 'stepSeo', body: Seo },
  { step: 'aeo', label: 'stepAeo', body: Aeo },
]
