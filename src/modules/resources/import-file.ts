import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value'
import { LIMITS } from '../../http/schema.ts'
import { DomainError } from '../../shared/errors.ts'
import { mediaFault } from '../../shared/url-rule.ts'
import { jsonErrorPosition } from './json-locate.ts'
import { RESOURCE_LIMITS, ResourceStatus } from './model.ts'

const Code = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]*$',
  maxLength: RESOURCE_LIMITS.code,
  description: `a code of letters, digits and _ . : - (at most ${RESOURCE_LIMITS.code})`,
})
const Name = Type.String({ maxLength: LIMITS.name })
const RequiredName = Type.String({
  pattern: '\\S',
  maxLength: LIMITS.name,
  description: `a non-blank name of at most ${LIMITS.name} characters`,
})
const Description = Type.String({ maxLength: RESOURCE_LIMITS.description })
const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })

const ImportCategory = Type.Object(
  {
    code: Code,
    parentCode: Type.Optional(Type.Union([Code, Type.Null()], { description: 'a category code or null' })),
    nameEn: RequiredName,
    nameZh: Type.Optional(Name),
    iconUrl: Type.Optional(
      Type.String({ pattern: '^(https?://\\S+|/\\S*)?$', maxLength: LIMITS.url, description: 'an http(s) URL or a path starting with /' }),
    ),
    sort: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
)

const ImportResource = Type.Object(
  {
    productId: Type.String({
      pattern: '^\\S(.*\\S)?$',
      maxLength: RESOURCE_LIMITS.productId,
      description: `a non-blank id of at most ${RESOURCE_LIMITS.productId} characters, without surrounding spaces`,
    }),
    nameEn: RequiredName,
    nameZh: Name,
    descriptionEn: Description,
    descriptionZh: Description,
    categoryCode: Code,
    stock: Count,
    cnyPrice: Count,
    usdtPrice: Count,
    sourceType: Type.Integer({ minimum: 0, maximum: RESOURCE_LIMITS.sourceType }),
    status: ResourceStatus,
  },
  { additionalProperties: false },
)

/** The import file (docs/resources.md): both lists optional, unknown fields refused so typos surface. */
export const ImportFile = Type.Object(
  {
    categories: Type.Optional(Type.Array(ImportCategory, { maxItems: 10_000 })),
    resources: Type.Optional(Type.Array(ImportResource, { maxItems: 200_000 })),
  },
  { additionalProperties: false },
)
export type ImportFile = Static<typeof ImportFile>
export type ImportCategory = Static<typeof ImportCategory>
export type ImportResource = Static<typeof ImportResource>

/** How many faults a refusal lists; past that the operator fixes and re-runs. */
const MAX_LISTED = 20

/** A refused import: nothing was written; each line names the record and field at fault. */
export class ImportRefused extends DomainError {
  constructor(
    file: string,
    readonly faults: string[],
  ) {
    const listed = faults.slice(0, MAX_LISTED)
    const more = faults.length > listed.length ? [`… and ${faults.length - listed.length} more`] : []
    super('IMPORT_REFUSED', 400, [`${file} refused, nothing imported:`, ...listed, ...more].join('\n  '), { faults })
  }
}

/** `/resources/3/usdtPrice` → `resources[3].usdtPrice`. */
const fieldOf = (path: string) =>
  path
    .split('/')
    .slice(1)
    .reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part), '')

/** The record a path points into, named by its key so it can be found in a large file. */
function recordLabel(data: unknown, path: string): string {
  const [, list, index] = path.split('/')
  const record = (data as Record<string, unknown[] | undefined>)[list ?? '']?.[Number(index)] as Record<string, unknown> | undefined
  const key = list === 'resources' ? 'productId' : 'code'
  const value = record?.[key]
  return typeof value === 'string' && index !== undefined ? ` (${key} ${JSON.stringify(value)})` : ''
}

function describe(error: ValueError): string {
  if (error.type === ValueErrorType.ObjectRequiredProperty) return 'is required'
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return 'is not a field of the import format'
  const description = (error.schema as TSchema).description
  if (description) return `expected ${description}`
  return error.message.charAt(0).toLowerCase() + error.message.slice(1)
}

/** Parses and shape-checks the whole file; throws `ImportRefused` naming every record at fault. */
export function parseImportFile(name: string, text: string, siteUrl: string): ImportFile {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    const { line, column } = jsonErrorPosition(text)
    throw new ImportRefused(name, [`line ${line}, column ${column}: ${(error as Error).message}`])
  }
  const faults = new Map<string, string>()
  for (const error of Value.Errors(ImportFile, data)) {
    const field = fieldOf(error.path) || 'file'
    if (!faults.has(field)) faults.set(field, `${field}: ${describe(error)}${recordLabel(data, error.path)}`)
  }
  if (faults.size) throw new ImportRefused(name, [...faults.values()])
  const file = data as ImportFile
  // Icons follow the shared media rule (src/shared/url-rule.ts); the store lookup is left to the reader's 404.
  for (const [i, category] of (file.categories ?? []).entries()) {
    const fault = category.iconUrl?.trim() ? mediaFault(category.iconUrl, siteUrl) : null
    if (fault)
      faults.set(
        `categories[${i}].iconUrl`,
        `categories[${i}].iconUrl: not a usable media URL: ${fault} (code ${JSON.stringify(category.code)})`,
      )
  }
  if (faults.size) throw new ImportRefused(name, [...faults.values()])
  return file
}
