/**
 * What the v1 tests share: the demo app with an API key, the v1 JSON Schemas, and the demo's records as the
 * source export states them (the tests' independent truth: which records are listed, private, removed).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import type { Express } from 'express';
import { sourceRecords, startDemoApp, type DemoApp, type DemoAppOptions, type DemoData } from '../helpers/demo.js';

export const V1_KEY = 'v1-test-key-0f6b2c';
export const OTHER_KEY = 'v1-other-key-77aa';

/** The v1 JSON Schemas by file name (`object`, `agent`, ...), compiled together so they can refer to each other. */
export function v1Schemas(): (name: string) => ValidateFunction {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const dir = new URL('../../schemas/v1/', import.meta.url);
  for (const file of readdirSync(dir)) ajv.addSchema(JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as object);
  return (name) => ajv.getSchema(`urn:museum-ld:schema:v1:${name}`)!;
}

/** Asserts a body against a schema, with ajv's errors as the failure message. */
export function expectValid(validate: ValidateFunction, body: unknown): void {
  const ok = validate(body);
  expect(ok ? [] : validate.errors).toEqual([]);
}

export interface SourceObject {
  objectNumber: string;
  titles: Partial<Record<'nl' | 'fr' | 'en', string>>;
  descriptions: Partial<Record<'nl' | 'fr' | 'en', string>>;
  types: string[];
  images: { iiifBase: string; rights: string }[];
  media: { manifest?: string };
  onDisplay: boolean;
  healthy: boolean;
  public: boolean;
  state: { kind: string; into?: string };
  sameAs: string[];
}

export interface SourceRecord {
  pid: string;
  public: boolean;
  sameAs?: string[];
  [key: string]: unknown;
}

/** The demo's objects and the sets the spec's rules make of them. */
export function demoObjects(data: DemoData) {
  const all = sourceRecords(data, 'objects') as SourceObject[];
  const listed = all.filter((o) => o.public && o.healthy && o.state.kind === 'current');
  return {
    all,
    listed,
    /** Private, healthy, current: what only the private stream serves. */
    privates: all.filter((o) => !o.public && o.healthy && o.state.kind === 'current'),
    unhealthy: all.filter((o) => !o.healthy),
    removed: all.filter((o) => o.state.kind === 'removed'),
    redirected: all.filter((o) => ['merged', 'renumbered', 'withdrawn'].includes(o.state.kind)),
  };
}

/** The demo's public records of another kind. */
export const publicRecords = (data: DemoData, kind: 'agents' | 'exhibitions' | 'concepts'): SourceRecord[] =>
  (sourceRecords(data, kind) as SourceRecord[]).filter((record) => record.public);

/** Code-point order, as SPARQL orders plain strings (and so the collections their pids). */
export const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The datahub URI among a record's sameAs links. */
export const datahubOf = (record: { sameAs?: string[] }): string | undefined => record.sameAs?.find((uri) => uri.startsWith('https://stad.gent/id/'));

/** Rows of a SELECT on /sparql (the public store), as plain values. */
export async function sparqlSelect(app: Express, query: string): Promise<Record<string, string>[]> {
  const res = await request(app).post('/sparql').set('Content-Type', 'application/sparql-query').set('Accept', 'application/sparql-results+json').send(query);
  expect(res.status).toBe(200);
  const body = JSON.parse(res.text) as { results: { bindings: Record<string, { value: string }>[] } };
  return body.results.bindings.map((binding) => Object.fromEntries(Object.entries(binding).map(([name, term]) => [name, term.value])));
}

/** A v1 page's members. */
export const membersOf = (body: unknown): Record<string, unknown>[] => (body as { 'gecureerdeSet.bestaatUit': Record<string, unknown>[] })['gecureerdeSet.bestaatUit'];

/**
 * Every member of a v1 collection, following `hydra:next` from `path` (links are absolute; the test app answers
 * their path); `credential` (`&apiKey=…`) is added to every followed link, which never carries one.
 */
export async function walk(app: Express, path: string, credential = ''): Promise<{ members: Record<string, unknown>[]; pages: Record<string, unknown>[] }> {
  const members: Record<string, unknown>[] = [];
  const pages: Record<string, unknown>[] = [];
  let next: string | null = path;
  while (next !== null) {
    const res = await request(app).get(next);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as Record<string, unknown>;
    pages.push(body);
    members.push(...membersOf(body));
    const link = (body['hydra:view'] as { 'hydra:next': string | null })['hydra:next'];
    next = link === null ? null : new URL(link).pathname + new URL(link).search + credential;
  }
  return { members, pages };
}

export interface V1Demo {
  readonly demo: DemoApp;
  readonly objects: ReturnType<typeof demoObjects>;
  get(path: string): request.Test;
}

/** The demo app of a test file (started before its tests, closed after), with the demo's objects. */
export function useV1Demo(env: Record<string, string> = {}, options: DemoAppOptions = {}): V1Demo {
  let demo: DemoApp | undefined;
  let objects: ReturnType<typeof demoObjects> | undefined;
  beforeAll(async () => {
    demo = await startDemoApp(env, options);
    objects = demoObjects(demo.data);
  }, 600_000);
  afterAll(async () => {
    await demo?.close();
  });
  return {
    get demo() {
      return demo!;
    },
    get objects() {
      return objects!;
    },
    get: (path) => request(demo!.app).get(path),
  };
}

/** A response's body parsed from its text (v1 answers JSON-LD). */
export const json = (res: { text: string }): Record<string, unknown> => JSON.parse(res.text) as Record<string, unknown>;
