import { SEO_DESCRIPTION_LENGTH } from '../../../seo/rules/seo-description-length.ts'
import { SEO_TITLE_WIDTH } from '../../../seo/rules/seo-title-length.ts'
import { TITLE_LENGTH } from '../../../seo/rules/title-length.ts'
import { COVER_ALT_LIMITS } from '../../../seo/rules/cover-alt.ts'
import { currentLang, t, type Key } from '../i18n.ts'
import { fieldId, SelectField, TextField, type TextFieldProps } from './fields.tsx'
import type { PostForm, StepProps } from './form.ts'
import { Content } from './content-step.tsx'
import type { Step } from './live-check.ts'

/** The form's fields that hold text. */
type TextKey = { [K in keyof PostForm]: PostForm[K] extends string ? K : never }[keyof PostForm]

/** A text field bound to the form's field of the same name; `inLanguage`: written in the post's language. */
function FormText(
  props: Pick<StepProps, 'form' | 'set'> & { name: TextKey; label: Key; inLanguage?: boolean } & Pick<
      TextFieldProps,
      'multiline' | 'counter' | 'type'
    >,
) {
  const { form, set, name, inLanguage, ...rest } = props
  return (
    <TextField
      {...rest}
      name={name}
      lang={inLanguage ? form.language : undefined}
      value={form[name]}
      onInput={(value) => set({ [name]: value })}
    />
  )
}

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
      <FormText form={form} set={set} name="title" label="fTitle" inLanguage counter={{ unit: 'chars', range: TITLE_LENGTH[l] }} />
      <FormText form={form} set={set} name="slug" label="fSlug" />
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
      <FormText form={form} set={set} name="author" label="fAuthorText" />
      <FormText form={form} set={set} name="coverImage" label="fCover" type="url" />
      <FormText
        form={form}
        set={set}
        name="coverAlt"
        label="fCoverAlt"
        inLanguage
        counter={{ unit: 'chars', range: { max: COVER_ALT_LIMITS[l].maxLength } }}
      />
    </>
  )
}

function Seo({ form, set }: StepProps) {
  const l = form.language
  return (
    <>
      <FormText form={form} set={set} name="summary" label="fSummary" inLanguage multiline />
      <FormText form={form} set={set} name="seoTitle" label="fSeoTitle" inLanguage counter={{ unit: 'width', range: SEO_TITLE_WIDTH[l] }} />
      <FormText
        form={form}
        set={set}
        name="seoDescription"
        label="fSeoDescription"
        inLanguage
        multiline
        counter={{ unit: 'chars', range: SEO_DESCRIPTION_LENGTH[l] }}
      />
      <FormText form={form} set={set} name="canonicalUrl" label="fCanonical" type="url" />
      <FormText form={form} set={set} name="robots" label="fRobots" />
      <label class="check">
        <input
          id={fieldId('indexable')}
          type="checkbox"
          checked={form.indexable}
          onChange={(e) => set({ indexable: e.currentTarget.checked })}
        />{' '}
        {t('fIndexable')}
      </label>
      <FormText form={form} set={set} name="ogTitle" label="fOgTitle" inLanguage />
      <FormText form={form} set={set} name="ogDescription" label="fOgDescription" inLanguage multiline />
      <FormText form={form} set={set} name="ogImage" label="fOgImage" type="url" />
    </>
  )
}

function Aeo({ form, set }: StepProps) {
  const l = form.language
  const setFaq = (i: number, patch: Partial<{ question: string; answer: string }>) =>
    set({ faqBlocks: form.faqBlocks.map((f, j) => (i === j ? { ...f, ...patch } : f)) })
  return (
    <>
      <FormText form={form} set={set} name="answerSummary" label="fAnswer" inLanguage multiline />
      <FormText form={form} set={set} name="keyTakeaways" label="fTakeaways" inLanguage multiline />
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
      <FormText form={form} set={set} name="reviewedAt" label="fReviewed" />
    </>
  )
}

export const STEPS: { step: Step; label: Key; body: (props: StepProps) => preact.JSX.Element }[] = [
  { step: 'basic', label: 'stepBasic', body: Basic },
  { step: 'content', label: 'stepContent', body: Content },
  { step: 'seo', label: 'stepSeo', body: Seo },
  { step: 'aeo', label: 'stepAeo', body: Aeo },
]
