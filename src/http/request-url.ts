/** The path and raw query of a request URL, by string search rather than a full URL parse (a hot path). */
export function splitUrl(url: string): { pathname: string; query: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const mark = url.indexOf('?', start)
  return mark < 0 ? { pathname: url.slice(start), query: '' } : { pathname: url.slice(start, mark), query: url.slice(mark + 1) }
}
