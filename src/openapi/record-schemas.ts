/**
 * The JSON Schemas of the records (schemas/<kind>.schema.json, draft 2020-12, the schemas the record tests
 * validate every demo record against) as OpenAPI 3.1 component schemas. OpenAPI 3.1 schema objects are JSON
 * Schema 2020-12, so a record schema is embedded as it is, with two changes: its `$id`/`$schema` are dropped
 * and its internal `#/$defs/<name>` references become `#/components/schemas/<Component>/$defs/<name>`, so every
 * reference resolves against the OpenAPI document itself (tools that ignore a nested `$id`, Swagger UI among
 * them, resolve them too). The files stay the one source: nothing here restates a record's shape.
 */
import { readFileSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResourceKind } from '../engine/kind.js';
import { capitalised } from './helpers.js';
import type { JsonSchema } from '../engine/api-declaration.js';

export type { JsonSchema } from '../engine/api-declaration.js';

const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** A deep copy of `value` with every internal `$ref` (`#/...`) re-rooted under `#/components/schemas/<component>`. */
function reroot(value: unknown, component: string): unknown {
  if (Array.isArray(value)) return value.map((item) => reroot(item, component));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string') {
      if (!item.startsWith('#')) throw new Error(`${component}: external $ref ${item} is not supported`);
      out[key] = `#/components/schemas/${component}${item.slice(1)}`;
    } else out[key] = reroot(item, component);
  }
  return out;
}

/** The record schema of `component` as an OpenAPI component schema. */
export function recordComponentSchema(component: string, schemaFile: string): JsonSchema {
  // A kind declared outside src/kinds names its own file by path (ApiDeclaration.schemaFile).
  const own = isAbsolute(schemaFile);
  const file = own ? schemaFile : `${SCHEMA_DIR}${schemaFile}.schema.json`;
  const { $id, $schema: _dialect, ...schema } = JSON.parse(readFileSync(file, 'utf8')) as JsonSchema;
  const rerooted = reroot(schema, component) as JsonSchema;
  const note = `Source: ${own ? basename(file) : `schemas/${schemaFile}.schema.json`} (\`${String($id)}\`), embedded with its $defs.`;
  return { ...rerooted, description: typeof schema.description === 'string' ? `${schema.description}\n\n${note}` : note };
}

/** The record schema of each kind, by component name (`<Kind>Record`). */
export function recordComponentSchemas(kinds: readonly Pick<ResourceKind, 'kind' | 'api'>[]): Record<string, JsonSchema> {
  return Object.fromEntries(kinds.map((kind) => [recordComponentName(kind), recordComponentSchema(recordComponentName(kind), kind.api.schemaFile)]));
}

/** The component name of a kind's record schema (`ObjectRecord`), or of its stub (`ObjectStub`, in schemas.ts). */
export const recordComponentName = (kind: Pick<ResourceKind, 'kind'>, form: 'Record' | 'Stub' = 'Record'): string => `${capitalised(kind.kind)}${form}`;
