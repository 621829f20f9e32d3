/**
 * The one place XML text is escaped. Every renderer builds documents from `el` (or `XmlWriter`), so
 * no caller ever concatenates unescaped strings into markup. Characters XML 1.0 forbids
 * (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are dropped rather than emitted.
 */
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/** Any character either pass above would change: most text has none and is returned as it is. */
const TOUCHED = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/

export const escapeXml = (value: string): string =>
  TOUCHED.test(value) ? value.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!) : value

/** Markup that is already safe: only `el` and `XmlWriter` make it. */
export interface Xml {
  readonly xml: string
}

export type Attrs = Readonly<Record<string, string | number | undefined>>

function attributes(attrs: Attrs): string {
  let out = ''
  for (const key in attrs) {
    const value = attrs[key]
    if (value !== undefined) out += ` ${key}="${escapeXml(String(value))}"`
  }
  return out
}

/** An element; string children are escaped text, `undefined` children and attributes are left out. */
export function el(name: string, attrs: Attrs = {}, ...children: (Xml | string | number | undefined)[]): Xml {
  let inner = ''
  for (const child of children) if (child !== undefined) inner += typeof child === 'object' ? child.xml : escapeXml(String(child))
  return { xml: inner ? `<${name}${attributes(attrs)}>${inner}</${name}>` : `<${name}${attributes(attrs)}/>` }
}

/**
 * Markup written start to end, for long documents (a sitemap of thousands of URLs) where an `Xml`
 * per element costs more than its text. Escapes as `el` does, and writes what `el` would write
 * for the same tree: an element given no children (`open` then `close`) closes itself.
 */
export class XmlWriter {
  private out = ''
  private pending = ''

  /** Starts an element; its start tag is held until a child or `close` shows whether it is empty. */
  open(name: string, attrs: Attrs = {}): this {
    this.put('')
    this.pending = `<${name}${attributes(attrs)}`
    return this
  }

  /** An element with only text; empty text leaves it empty (`<name/>`), as `el` does. */
  text(name: string, value: string): this {
    return this.put(value ? `<${name}>${escapeXml(value)}</${name}>` : `<${name}/>`)
  }

  /** An element with no children. */
  empty(name: string, attrs: Attrs = {}): this {
    return this.put(`<${name}${attributes(attrs)}/>`)
  }

  close(name: string): this {
    if (this.pending) {
      this.out += `${this.pending}/>`
      this.pending = ''
    } else this.out += `</${name}>`
    return this
  }

  /** The markup written so far; complete once every opened element is closed. */
  get xml(): string {
    return this.out
  }

  private put(markup: string): this {
    if (this.pending) {
      this.out += `${this.pending}>`
      this.pending = ''
    }
    this.out += markup
    return this
  }
}

/** A whole document with its declaration. */
export const xmlDocument = (root: Xml): string => `<?xml version="1.0" encoding="UTF-8"?>\n${root.xml}\n`
