import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  dbCredentials: { url: process.env.DATA_DIR ? `${process.env.DATA_DIR}/folio.db` : './data/folio.db' },
})
