import type { AnyElysia } from 'elysia'
import type { Ctx } from './context.ts'
import { cspReportRoutes } from './http/csp-report.ts'
import { feedRoutes } from './modules/artifacts/routes.ts'
import { authorRoutes } from './modules/authors/routes.ts'
import { consoleBundle } from './modules/console/bundle.ts'
import { consoleRoutes } from './modules/console/routes.ts'
import { structureRoutes } from './modules/console/structure-routes.ts'
import { engagementRoutes, moderationRoutes } from './modules/engagement/routes.ts'
import { importRoutes } from './modules/import/routes.ts'
import { mcpRoutes } from './modules/mcp/routes.ts'
import type { McpServices } from './modules/mcp/tools.ts'
import type { openMediaStore } from './modules/media/index.ts'
import { localMediaRoutes, mediaUploadRoutes } from './modules/media/routes.ts'
import { adminPageRoutes, publicPageRoutes, writePageRoutes } from './modules/pages/routes.ts'
import { adminPostRoutes } from './modules/posts/admin-routes.ts'
import { previewRoutes, publicPostRoutes, revisionRoutes, writePostRoutes } from './modules/posts/routes.ts'
import { resourceRoutes } from './modules/resources/routes.ts'
import { searchRoutes } from './modules/search/routes.ts'
import { settingsRoutes } from './modules/settings/routes.ts'
import { indexNowKeyRoutes } from './modules/site/indexnow-key.ts'
import { previewPageRoutes } from './modules/site/preview.ts'
import { taxonomyRoutes } from './modules/taxonomy/routes.ts'
import { tokenRoutes } from './modules/tokens/routes.ts'
import { webhookRoutes } from './modules/webhooks/routes.ts'
import type { serverRebuildControl } from './operations/rebuild-control.ts'

/** What the features' routes are made from: the services the composition root (main.ts) wired. */
interface RouteParts {
  ctx: Ctx
  mediaStore: Awaited<ReturnType<typeof openMediaStore>>
  uploadMedia: Parameters<typeof mediaUploadRoutes>[0]
  mcp: McpServices
  /** The largest MCP request body: an upload at its limit as base64, plus the JSON around it. */
  mcpBodyBytes: number
  blog: Parameters<typeof feedRoutes>[0]
  publishingRoutes: readonly AnyElysia[]
  wakeWebhooks: () => void
  peopleRoutes: readonly AnyElysia[]
  imports: Parameters<typeof importRoutes>[0]
  rebuildControl: ReturnType<typeof serverRebuildControl> | null
  /** The server (not a CLI command): only it serves the console's page. */
  serves: boolean
}

/** Every feature's routes, in the order the app mounts them. */
export function featureRoutes(parts: RouteParts): AnyElysia[] {
  const { ctx, mediaStore, rebuildControl } = parts
  const { config } = ctx
  return [
    taxonomyRoutes(ctx),
    authorRoutes(ctx),
    publicPostRoutes(ctx),
    searchRoutes(ctx),
    writePostRoutes(ctx),
    revisionRoutes(ctx),
    adminPostRoutes(ctx),
    previewRoutes(ctx),
    previewPageRoutes(ctx),
    publicPageRoutes(ctx),
    writePageRoutes(ctx),
    adminPageRoutes(ctx),
    settingsRoutes(ctx),
    engagementRoutes(ctx),
    moderationRoutes(ctx),
    resourceRoutes(ctx),
    mediaUploadRoutes(parts.uploadMedia),
    ...('serve' in mediaStore ? [localMediaRoutes(ctx, mediaStore)] : []),
    ...parts.publishingRoutes,
    feedRoutes(parts.blog),
    webhookRoutes(ctx, parts.wakeWebhooks),
    cspReportRoutes(ctx.log),
    indexNowKeyRoutes(config.indexNow.key),
    mcpRoutes(parts.mcp, parts.mcpBodyBytes),
    ...parts.peopleRoutes,
    tokenRoutes(ctx),
    structureRoutes(ctx),
    importRoutes(parts.imports, config.maxUploadBytes),
    ...(rebuildControl ? [rebuildControl.routes] : []),
    // The console's page and assets: only for the server (a CLI command serves no page), bundled at the first console request.
    ...(parts.serves ? [consoleRoutes(ctx, consoleBundle(config.cacheDir))] : []),
  ]
}
