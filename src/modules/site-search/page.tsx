import type { Language } from '../../shared/language.ts'
import type { Head } from '../site/head.ts'
import { Layout, type Chrome } from '../site/templates/layout.tsx'
import { manifestUrl } from './shards.ts'
import { SEARCH_WORDS } from './words.ts'

/** The search script's URL: served like the index, from CACHE_DIR. */
export const SCRIPT_URL = '/search/search.js'

/**
 * The search page: a labelled search field in a form (GET `?q=`, so a result list can be linked),
 * a live status line and the results list, filled by the script from the static index. The words
 * the script shows travel as data attributes, so the script has none of its own and no inline code
 * is needed (the page's CSP allows only the site's own files).
 */
export function SearchPageView({ head, chrome, language }: { head: Head; chrome: Chrome; language: Language }) {
  const w = SEARCH_WORDS[language]
  return (
    <Layout head={head} chrome={chrome}>
      <section class="search">
        <h1>{w.title}</h1>
        <form
          class="search-form"
          role="search"
          method="get"
          data-language={language}
          data-index={manifestUrl(language)}
          data-idle={w.idle}
          data-found={w.found}
          data-none={w.none}
          data-searching={w.searching}
          data-failed={w.failed}
        >
          <label for="search-q">{w.label}</label>
          <input id="search-q" type="search" name="q" maxLength={200} autocomplete="off" />
          <button type="submit">{w.submit}</button>
        </form>
        <p id="search-status" role="status" aria-live="polite">
          {w.needsScript}
        </p>
        <ol id="search-results" class="search-results" aria-labelledby="search-status"></ol>
      </section>
      <script src={SCRIPT_URL} defer />
    </Layout>
  )
}
