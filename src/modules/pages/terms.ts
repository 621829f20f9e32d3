// The pages' fixed terms, apart from their schemas (model.ts): the renderer, the verbs and the CLI
// use them without loading the web framework.

/** Where a published page is linked from on every site page (docs/pages.md, "Navigation"). */
export const NAV_PLACEMENTS = ['none', 'header', 'footer'] as const

/** 0 draft, 1 published. */
export const PAGE_STATUS = { draft: 0, published: 1 } as const
