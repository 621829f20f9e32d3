import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, updatedAt } from './columns.ts'

export const categories = sqliteTable('categories', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  slug: text('slug').notNull().unique(),
  nameEn: text('name_en').notNull(),
  nameZh: text('name_zh').notNull().default(''),
  descriptionEn: text('description_en').notNull().default(''),
  descriptionZh: text('description_zh').notNull().default(''),
  sort: integer('sort').notNull().default(0),
  status: integer('status').notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

export const tags = sqliteTable(
  'tags',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    slug: text('slug').notNull().unique(),
    nameEn: text('name_en').notNull().default(''),
    nameZh: text('name_zh').notNull().default(''),
    language: text('language', { enum: ['all', 'en', 'zh'] }).notNull(),
    status: integer('status').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('tags_language').on(table.language, table.status)],
)

export const authors = sqliteTable(
  'authors',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    slug: text('slug').notNull(),
    language: text('language', { enum: ['en', 'zh'] }).notNull(),
    name: text('name').notNull(),
    title: text('title').notNull().default(''),
    bio: text('bio').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    credentials: text('credentials').notNull().default(''),
    socialLinks: text('social_links').notNull().default(''),
    status: integer('status').notNull().default(1),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('authors_language_slug').on(table.language, table.slug)],
)
