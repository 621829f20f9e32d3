import { analyseBody } from './html/document.ts'

/** The post's `contentText`: the §2 body text the rules measure, one block a line. */
export const contentText = (html: string): string => analyseBody(html).text
