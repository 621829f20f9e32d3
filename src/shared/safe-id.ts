import { DOM_NAMES } from './dom-names.ts'

/** At most 64 letters, digits, `-` or `_`: nothing that can close an attribute or start markup. */
const SAFE_TOKEN = /^[\p{L}\p{N}_-]{1,64}$/u

/** An `id` of the DOM of a page that names no DOM property (seo-rules.md §5 TOC ids; the sanitizer's ids). */
export const clobbersDom = (id: string): boolean => DOM_NAMES.has(id)

/** A safe token that is no DOM property's name: what a stored body's `id` and a TOC id may be. */
export const isSafeId = (id: string): boolean => SAFE_TOKEN.test(id) && !clobbersDom(id)
