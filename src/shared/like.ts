/** A LIKE pattern (used with `escape '\'`) matching `text` anywhere, the caller's % and _ taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
