export * from './tokens.ts'
export * from './taxonomy.ts'
export * from './posts.ts'
export * from './settings.ts'
