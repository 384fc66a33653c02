/**
 * The OpenAPI document's response examples are real answers of the demo collection (src/openapi/examples.ts),
 * and stay so: each is compared with the live answer to its request. When a response changes on purpose, run
 * `npx tsx scripts/capture-openapi-examples.ts` and review the diff of src/openapi/openapi-examples.json.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { EXAMPLE_REQUESTS, loadExamples } from '../../src/openapi/examples.js';
import { startDemoApp, TEST_BASE_URL, type DemoApp } from '../helpers/demo.js';

const DOC_ID = 'urn:museum-ld:openapi';
/** `#/…` references made absolute against the document registered under DOC_ID. */
const anchored = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(anchored);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, item]) => [key, key === '$ref' && typeof item === 'string' && item.startsWith('#') ? `${DOC_ID}${item}` : anchored(item)]));
};

let demo: DemoApp;
beforeAll(async () => {
  demo = await startDemoApp();
}, 600_000);
afterAll(() => demo.close());

describe('the OpenAPI examples', () => {
  it('are the live answers to their requests, one per JSON-LD operation listed', async () => {
    const examples = loadExamples(TEST_BASE_URL);
    expect(Object.keys(examples).sort()).toEqual(Object.keys(EXAMPLE_REQUESTS).sort());
    for (const [operationId, example] of Object.entries(examples)) {
      const res = await request(demo.app).get(example.url).set('Accept', 'application/ld+json');
      expect([operationId, res.status]).toEqual([operationId, 200]);
      const live = JSON.parse(res.text.replaceAll(demo.data.iiifBase, TEST_BASE_URL)) as unknown;
      expect([operationId, live]).toEqual([operationId, example.value]);
    }
  });

  it('are in the served document under the 200 of their operation, and validate against its schema (Ajv, JSON Schema 2020-12)', async () => {
    type Content = { schema: unknown; examples?: Record<string, { value: unknown }> };
    const doc = (await request(demo.app).get('/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, Content> }> }>> };
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, DOC_ID);
    const found = new Set<string>();
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) {
        const content = op.responses['200']?.content?.['application/ld+json'];
        const value = content?.examples?.demo?.value;
        if (value === undefined) continue;
        found.add(op.operationId);
        const validate = ajv.compile(anchored(content!.schema) as object);
        expect([op.operationId, validate(value) ? [] : validate.errors?.slice(0, 3)]).toEqual([op.operationId, []]);
      }
    }
    // The agents' ark path shares the agent record's answer, example included.
    for (const operationId of Object.keys(EXAMPLE_REQUESTS)) expect(found.has(operationId)).toBe(true);
  });
});
