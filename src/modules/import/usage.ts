/** The import and export commands' lines in `cli --help`, apart from their code so the help loads none of it. */
export const IMPORT_USAGE = `  import wordpress FILE.xml|ghost FILE.json|markdown DIR [--language en|zh|auto] [--status keep|gate] [--media keep|fetch] [--dry-run] [--report FILE.json]
  import folio FILE.tar.gz
  export FILE.tar.gz --format folio | export DIR --format markdown | export FILE.xml --format wxr
  redirects export --format caddy|nginx|netlify|csv`
