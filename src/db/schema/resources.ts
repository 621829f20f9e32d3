import { index, integer, sqliteTable, text, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import { createdAt, updatedAt } from './columns.ts'

/** The business-resource category tree (spec §2.10); `code` is the public key clients filter by. */
export const resourceCategories = sqliteTable(
  'resource_categories',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    code: text('code').notNull().unique(),
    parentId: integer('parent_id').references((): AnySQLiteColumn => resourceCategories.id),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh').notNull().default(''),
    iconUrl: text('icon_url').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('resource_categories_parent').on(table.parentId)],
)

/**
 * Products posts can link to (spec §2.10). `id` is ours (what `relatedProductIds` names);
 * `productId` is the source system's key, which imports upsert by. Prices are integers in the
 * stored product unit. The `*_text` columns hold the descriptions as plain text, so keyword
 * search matches what a reader sees rather than markup.
 */
export const resources = sqliteTable(
  'resources',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: text('product_id').notNull().unique(),
    nameEn: text('name_en').notNull(),
    nameZh: text('name_zh').notNull().default(''),
    descriptionEn: text('description_en').notNull().default(''),
    descriptionZh: text('description_zh').notNull().default(''),
    descriptionTextEn: text('description_text_en').notNull().default(''),
    descriptionTextZh: text('description_text_zh').notNull().default(''),
    categoryCode: text('category_code')
      .notNull()
      .references(() => resourceCategories.code),
    stock: integer('stock').notNull().default(0),
    cnyPrice: integer('cny_price').notNull().default(0),
    usdtPrice: integer('usdt_price').notNull().default(0),
    sourceType: integer('source_type').notNull().default(0),
    status: integer('status').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('resources_category').on(table.categoryCode, table.status),
    // `status` alone: its entries run in id order within a status, so the default page needs no sort.
    index('resources_status').on(table.status),
  ],
)
