import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { api, ApiError, type Me } from './api.ts'
import { currentLang, setLang, t, type Lang } from './i18n.ts'
import { navigate } from './nav.ts'
import { ROUTES } from './routes.ts'
import { SetupPage } from './pages/setup.tsx'
import { SignInPage } from './pages/sign-in.tsx'

function LanguagePicker({ onChange }: { onChange: (lang: Lang) => void }) {
  return (
    <div class="lang">
      <label for="console-language">{t('language')}</label>
      <select id="console-language" value={currentLang()} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as Lang)}>
        <option value="en">English</option>
        <option value="zh">中文</option>
      </select>
    </div>
  )
}

function App() {
  const [, setLangState] = useState(currentLang())
  const [path, setPath] = useState(location.pathname)
  const [me, setMe] = useState<Me | null | undefined>(undefined)
  const changeLang = (next: Lang) => {
    setLang(next)
    setLangState(next)
  }
  const loadMe = () =>
    api<Me>('GET', '/admin/api/me').then(setMe, (error) => (error instanceof ApiError && error.status === 401 ? setMe(null) : setMe(null)))
  useEffect(() => {
    document.documentElement.lang = currentLang() === 'zh' ? 'zh-CN' : 'en'
    const onPop = () => setPath(location.pathname)
    addEventListener('popstate', onPop)
    void loadMe()
    return () => removeEventListener('popstate', onPop)
  }, [])

  const header = (signedIn: boolean) => (
    <header class="top">
      <p class="brand">{t('console')}</p>
      <LanguagePicker onChange={changeLang} />
      {signedIn && (
        <button type="button" onClick={() => api('POST', '/admin/api/sign-out').finally(() => setMe(null))}>
          {t('signOut')}
        </button>
      )}
    </header>
  )

  if (path === '/admin/setup')
    return (
      <>
        {header(false)}
        <main id="main">
          <SetupPage onDone={() => loadMe().then(() => navigate('/admin/'))} />
        </main>
      </>
    )
  if (me === undefined) return <p class="loading">{t('loading')}</p>
  if (me === null)
    return (
      <>
        {header(false)}
        <main id="main">
          <SignInPage onDone={loadMe} />
        </main>
      </>
    )
  const allowed = ROUTES.filter((route) => me.user.scopes.includes(route.scope))
  const route = allowed.find((r) => r.path === path) ?? allowed[0]!
  const Page = route.page
  return (
    <>
      <a class="skip" href="#main">
        {t('skip')}
      </a>
      {header(true)}
      <nav aria-label={t('console')}>
        <ul>
          {allowed.map((r) => (
            <li key={r.path}>
              <a
                href={r.path}
                aria-current={r === route ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault()
                  navigate(r.path)
                }}
              >
                {t(r.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Page me={me} />
      </main>
    </>
  )
}

render(<App />, document.getElementById('console')!)
