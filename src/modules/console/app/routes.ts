import type { FunctionComponent } from 'preact'
import type { Me } from './api.ts'
import type { Key } from './i18n.ts'
import { Account } from './pages/account.tsx'
import { Audit } from './pages/audit.tsx'
import { Comments } from './pages/comments.tsx'
import { Dashboard } from './pages/dashboard.tsx'
import { Resources } from './pages/resources.tsx'
import { Settings } from './pages/settings.tsx'
import { Authors, Categories, Tags } from './pages/structure.tsx'
import { Pages } from './pages/pages.tsx'
import { Editor } from './pages/editor.tsx'
import { Import } from './pages/import.tsx'
import { Posts } from './pages/posts.tsx'
import { Tokens } from './pages/tokens.tsx'
import { Webhooks } from './pages/webhooks.tsx'

/** One page of the console: its path, its navigation label, the scope it needs, and its component. */
export interface ConsoleRoute {
  path: string
  label: Key
  /** The API scope the page's actions need: a role without it sees no link and no page. */
  scope: string
  page: FunctionComponent<{ me: Me }>
}

/** The console's pages, in navigation order. A new page (the post editor) is one more entry here. */
export const ROUTES: ConsoleRoute[] = [
  { path: '/admin/', label: 'navDashboard', scope: 'blog:read', page: Dashboard },
  { path: '/admin/posts', label: 'navPosts', scope: 'blog:write', page: Posts },
  { path: '/admin/editor', label: 'navWrite', scope: 'blog:write', page: Editor },
  { path: '/admin/comments', label: 'navComments', scope: 'blog:admin', page: Comments },
  { path: '/admin/pages', label: 'navPages', scope: 'blog:write', page: Pages },
  { path: '/admin/tokens', label: 'navTokens', scope: 'blog:admin', page: Tokens },
  { path: '/admin/webhooks', label: 'navWebhooks', scope: 'blog:admin', page: Webhooks },
  { path: '/admin/settings', label: 'navSettings', scope: 'blog:admin', page: Settings },
  { path: '/admin/categories', label: 'navCategories', scope: 'blog:write', page: Categories },
  { path: '/admin/tags', label: 'navTags', scope: 'blog:write', page: Tags },
  { path: '/admin/authors', label: 'navAuthors', scope: 'blog:write', page: Authors },
  { path: '/admin/resources', label: 'navResources', scope: 'blog:admin', page: Resources },
  { path: '/admin/import', label: 'navImport', scope: 'blog:admin', page: Import },
  { path: '/admin/audit', label: 'navAudit', scope: 'blog:admin', page: Audit },
  { path: '/admin/account', label: 'navAccount', scope: 'blog:read', page: Account },
]
