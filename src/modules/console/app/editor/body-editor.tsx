import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { markdownKeymap, markdownLanguage } from '@codemirror/lang-markdown'
import { Compartment, EditorState, Prec } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { useEffect, useRef } from 'preact/hooks'

/**
 * The nonce the server put on the page's stylesheet link for this answer (the console's CSP
 * allows `style-src 'self' 'nonce-…'`): CodeMirror writes its own <style> element, which the
 * policy refuses without it. The browser hides the attribute but keeps the `nonce` property.
 */
const pageNonce = () => document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')?.nonce ?? ''

interface Props {
  id: string
  labelId: string
  value: string
  format: 'markdown' | 'html'
  lang: string
  onChange: (value: string) => void
  /** A pasted or dropped image: answers the snippet to insert, or null to insert nothing. */
  onFile: (file: File) => Promise<string | null>
  /** Receives a function that inserts a snippet at the caret (the file picker's way in). */
  insertRef: { current: ((snippet: string) => void) | null }
}

/** What changes with the post: the Markdown language, the element's id, label and language. */
const settingsOf = (p: Props) => [
  // The Markdown language and its keys alone: `markdown()` would add the HTML, CSS and JavaScript
  // grammars for embedded code, 190 KB more in the editor's chunk (docs/benchmarks.md).
  p.format === 'markdown' ? [markdownLanguage.extension, Prec.high(keymap.of(markdownKeymap))] : [],
  // tabindex: what it is anyway, said out loud, so checkers see the scrolled region holds a focusable element.
  EditorView.contentAttributes.of({ id: p.id, 'aria-labelledby': p.labelId, 'aria-multiline': 'true', lang: p.lang, tabindex: '0' }),
]

/**
 * The post body in CodeMirror 6: Markdown's language and keys (Enter continues a list) when the
 * body is Markdown, undo history, line wrapping, no colour theme (the console's own contrast).
 * The editable element carries the field's id and its label (`aria-labelledby`), so an item of
 * the check can move focus here and assistive technology names it. An image pasted or dropped is
 * handed to `onFile`, and its snippet inserted where it was dropped, or at the caret.
 */
export function BodyEditor(props: Props) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const settings = useRef(new Compartment())
  const latest = useRef(props)
  latest.current = props

  useEffect(() => {
    const insert = (snippet: string, at?: number) => {
      const v = view.current!
      // The document may have changed while the alt was asked and the file uploaded.
      const pos = Math.min(at ?? v.state.selection.main.head, v.state.doc.length)
      const text = `\n${snippet}\n`
      v.dispatch({ changes: { from: pos, insert: text }, selection: { anchor: pos + text.length } })
    }
    const take = (file: File | undefined, event: Event, at?: number) => {
      if (!file?.type.startsWith('image/')) return false
      event.preventDefault()
      void latest.current.onFile(file).then((snippet) => snippet && insert(snippet, at))
      return true
    }
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          EditorView.cspNonce.of(pageNonce()),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          settings.current.of(settingsOf(props)),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return
            const text = update.state.doc.toString()
            if (text !== latest.current.value) latest.current.onChange(text)
          }),
          EditorView.domEventHandlers({
            paste: (event) => take(event.clipboardData?.files[0], event),
            drop: (event, v) =>
              take(event.dataTransfer?.files[0], event, v.posAtCoords({ x: event.clientX, y: event.clientY }) ?? undefined),
          }),
        ],
      }),
    })
    view.current = created
    props.insertRef.current = (snippet) => insert(snippet)
    return () => {
      props.insertRef.current = null
      created.destroy()
    }
  }, [])

  // Text set from outside (a restored draft, a merge, a product card): replace the document.
  useEffect(() => {
    const v = view.current!
    if (props.value !== v.state.doc.toString()) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value } })
  }, [props.value])
  useEffect(() => {
    view.current!.dispatch({ effects: settings.current.reconfigure(settingsOf(props)) })
  }, [props.format, props.lang])

  return <div class="body-editor" ref={host} />
}
