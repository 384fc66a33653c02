/**
 * Real responses of the demo collection as the OpenAPI document's examples (issue 25): one request per
 * operation, captured by `npx tsx scripts/capture-openapi-examples.ts` into `openapi-examples.json` beside this
 * file's source, checked in, and compared with the live answers by test/endpoints/openapi-examples.test.ts so
 * that they cannot drift. URLs in them name `http://localhost:3000`, what `npm start` serves the demo at.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The request of each operation's example: a small answer that still shows every part of the document. */
export const EXAMPLE_REQUESTS: Readonly<Record<string, string>> = {
  getCatalog: '/v2/',
  getObject: '/v2/id/object/1482',
  getAgent: '/v2/id/agent/DMG-A-00001',
  getExhibition: '/v2/id/exhibition/TE_1956-001',
  getConcept: '/v2/id/concept/530000049',
  listObjects: '/v2/id/objects?itemsPerPage=3&type=stoel',
  listAgents: '/v2/id/agents?itemsPerPage=3&role=designer',
  listExhibitions: '/v2/id/exhibitions?itemsPerPage=3',
  listConcepts: '/v2/id/concepts?itemsPerPage=3&q=stoel',
  getColorsIndex: '/v2/id/colors?minCount=60',
  getDominantObjects: '/v2/id/colors/dominant?color=black&limit=2',
  getSimilarObjects: '/v2/id/object/1482/similar?limit=3',
  getTypesIndex: '/v2/id/types?onDisplay=true',
  getMaterialsIndex: '/v2/id/materials?onDisplay=true',
  getNationalitiesIndex: '/v2/id/nationalities',
  getRolesIndex: '/v2/id/roles',
  getProductionIndex: '/v2/id/production?bucket=50&yearFrom=1850&yearTo=2000',
};

export interface CapturedExample {
  url: string;
  value: unknown;
}

const FILE = new URL('../../src/openapi/openapi-examples.json', import.meta.url);

/** The checked-in examples by operation id, with `http://localhost:3000` replaced by `base`; none if missing. */
export function loadExamples(base: string): Readonly<Record<string, CapturedExample>> {
  if (!existsSync(FILE)) return {};
  const text = readFileSync(FILE, 'utf8').replaceAll('http://localhost:3000', base.replace(/\/+$/, ''));
  return JSON.parse(text) as Record<string, CapturedExample>;
}
