import { useEffect, useRef, useState } from 'preact/hooks'
import { generatedCoverAlt } from '../../../seo/suggestions/cover-alt.ts'
import { api, type Me } from '../api.ts'
import { ConflictView } from '../editor/conflict.tsx'
import { fieldId } from '../editor/fields.tsx'
import { differingFields, emptyForm, formOf, localDrafts, type PostForm, type StoredPost, type Taxonomy } from '../editor/form.ts'
import { useLiveCheck, type CheckItem } from '../editor/live-check.ts'
import { CheckPanel } from '../editor/panel.tsx'
import { PublishStep } from '../editor/publish-step.tsx'
import { Revisions } from '../editor/revisions.tsx'
import { STEPS } from '../editor/steps.tsx'
import * as verbs from '../editor/verbs.ts'
import { t } from '../i18n.ts'
import { ErrorNote } from '../ui.tsx'

const param = (name: string) => {
  const value = new URLSearchParams(location.search).get(name)
  return value && /^[1-9][0-9]*$/.test(value) ? Number(value) : null
}

/** A translation starts with the fields both languages share, pointing at its source. */
const translationOf = (source: StoredPost): PostForm => {
  const shared = formOf(source)
  return {
    ...emptyForm(source.language === 'en' ? 'zh' : 'en'),
    categoryId: shared.categoryId,
    tagIds: shared.tagIds,
    coverImage: shared.coverImage,
    ogImage: shared.ogImage,
    relatedProductIds: shared.relatedProductIds,
    reviewedAt: shared.reviewedAt,
    alternateSlug: source.slug,
  }
}

async function loadTaxonomy(): Promise<Taxonomy> {
  const [categories, tags, authors] = await Promise.all([
    api<Taxonomy['categories']>('GET', '/api/v1/blog/categories'),
    api<Taxonomy['tags']>('GET', '/api/v1/blog/tags?language=all'),
    api<Taxonomy['authors']>('GET', '/api/v1/blog/authors'),
  ])
  return { categories, tags, authors }
}

/** `/admin/editor`: one post, organised by the check's steps, with the gate live beside it (docs/editor.md). */
export function Editor({ me }: { me: Me }) {
  const [form, setForm] = useState<PostForm | null>(null)
  const [stored, setStored] = useState<StoredPost | null>(null)
  const [taxonomy, setTaxonomy] = useState<Taxonomy>({ categories: [], tags: [], authors: [] })
  const [offered, setOffered] = useState<PostForm | null>(null)
  const [conflict, setConflict] = useState<{ base: PostForm; mine: PostForm; theirs: PostForm } | null>(null)
  const [sourceId, setSourceId] = useState<number | null>(null)
  const [note, setNote] = useState('')
  const [error, setError] = useState<unknown>(null)
  const check = useLiveCheck(form ?? emptyForm())

  useEffect(() => {
    void loadTaxonomy().then(setTaxonomy, setError)
    const id = param('id')
    const translate = param('translate')
    const start = async () => {
      if (id) {
        const post = await verbs.readPost(id)
        const fresh = formOf(post)
        setStored(post)
        setForm(fresh)
        const kept = localDrafts.read(id, post.language)
        if (kept && differingFields(kept, fresh).length) setOffered(kept)
      } else if (translate) {
        setSourceId(translate)
        setForm(translationOf(await verbs.readPost(translate)))
      } else {
        const blank = emptyForm()
        setForm(blank)
        const kept = localDrafts.read(null, 'en')
        if (kept && differingFields(kept, blank).length) setOffered(kept)
      }
    }
    start().catch(setError)
  }, [])

  const set = (patch: Partial<PostForm>) =>
    setForm((prev) => {
      const next = { ...prev!, ...patch }
      localDrafts.write(next)
      return next
    })

  const adopt = (post: StoredPost) => {
    localDrafts.clear(form?.id ?? null, form?.language ?? post.language)
    localDrafts.clear(post.id, post.language)
    setStored(post)
    setForm(formOf(post))
    history.replaceState(null, '', `/admin/editor?id=${post.id}`)
  }

  const run = async (action: () => Promise<unknown>) => {
    setError(null)
    setNote('')
    try {
      await action()
    } catch (e) {
      if (verbs.isConflict(e) && form?.id && stored)
        setConflict({ base: formOf(stored), mine: form, theirs: formOf(await verbs.readPost(form.id)) })
      else setError(e)
    }
  }

  const save = (status = form!.status) =>
    run(async () => {
      const post = await verbs.savePost(form!, status)
      if (sourceId) await verbs.linkBack(sourceId, post.slug)
      setSourceId(null)
      adopt(post)
      setNote(t('saved'))
    })

  // Ctrl/Cmd+S saves the form of the last render: an effect re-registered after each render runs
  // after paint, so a key pressed right after typing would save the text before it.
  const latestSave = useRef(save)
  latestSave.current = save
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault()
        void latestSave.current()
      }
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])

  const go = (item: CheckItem) => document.getElementById(fieldId(item.targetField))?.focus()
  const fix = (item: CheckItem) => {
    const r = check.result!
    const fixes = {
      slug: { slug: r.generatedSlug },
      seo_title: { seoTitle: r.generatedSeoTitle },
      seo_description: { seoDescription: r.generatedSeoDescription },
      canonical_self: { canonicalUrl: '' },
      cover_alt: {
        coverAlt: generatedCoverAlt(
          form!.title,
          form!.language,
          form!.bodyFormat === 'html' ? { contentHtml: form!.body, coverImage: form!.coverImage } : undefined,
        ),
      },
    }
    set(fixes[item.autoFixType!])
    go(item)
  }
  const applyAll = () =>
    run(async () => {
      await verbs.savePost(form!, form!.status).then(adopt)
      const fixed = await verbs.autofix(form!.id ?? stored!.id)
      adopt(fixed.post)
    })

  if (!form) return <ErrorNote error={error} />
  const canPublish = me.user.scopes.includes('blog:publish')
  return (
    <>
      <h1>{t(form.id ? 'editorTitleEdit' : 'editorTitleNew')}</h1>
      {offered && (
        <div class="card warning" role="status">
          <p>{t('localDraft')}</p>
          <button type="button" onClick={() => (setForm(offered), setOffered(null))}>
            {t('restoreDraft')}
          </button>
          <button type="button" onClick={() => (localDrafts.clear(offered.id, offered.language), setOffered(null))}>
            {t('discardDraft')}
          </button>
        </div>
      )}
      {conflict && (
        <ConflictView
          base={conflict.base}
          mine={conflict.mine}
          theirs={conflict.theirs}
          onResolve={(merged) => {
            setConflict(null)
            setForm(merged)
            void run(async () => {
              adopt(await verbs.savePost(merged, merged.status))
              setNote(t('saved'))
            })
          }}
          onCancel={(theirs) => {
            setConflict(null)
            localDrafts.clear(theirs.id, theirs.language)
            setForm(theirs)
          }}
        />
      )}
      <ErrorNote error={error} />
      {note && (
        <p class="ok" role="status">
          {note}
        </p>
      )}
      <div class="editor">
        <form class="steps" onSubmit={(e) => (e.preventDefault(), void save())}>
          {STEPS.map(({ step, label, body: Body }) => (
            <section key={step} class="card" aria-label={t(label)}>
              <h2>{t(label)}</h2>
              <Body form={form} set={set} taxonomy={taxonomy} />
            </section>
          ))}
          <PublishStep
            form={form}
            set={set}
            stored={stored}
            check={check.result}
            mayPublish={canPublish}
            run={run}
            save={save}
            adopt={adopt}
          />
          {stored && <Revisions post={stored} onRestored={adopt} />}
        </form>
        <CheckPanel
          result={check.result}
          pending={check.pending}
          error={check.error}
          onGo={go}
          onFix={fix}
          onApplyAll={form.id ? applyAll : null}
        />
      </div>
    </>
  )
}
