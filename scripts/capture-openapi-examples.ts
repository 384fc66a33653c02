/**
 * Captures the OpenAPI document's response examples (src/openapi/examples.ts) from the demo collection served by
 * the test helper's app: `npx tsx scripts/capture-openapi-examples.ts`. Image URLs of the demo's harvest-time
 * IIIF server are written as the service's own (`http://localhost:3000/iiif/…`), as `npm start` serves them.
 * Run it when a response changes on purpose; test/endpoints/openapi-examples.test.ts fails until then.
 */
import { writeFileSync } from 'node:fs';
import request from 'supertest';
import { EXAMPLE_REQUESTS, type CapturedExample } from '../src/openapi/examples.js';
import { startDemoApp, TEST_BASE_URL } from '../test/helpers/demo.js';

const demo = await startDemoApp();
try {
  const examples: Record<string, CapturedExample> = {};
  for (const [operationId, url] of Object.entries(EXAMPLE_REQUESTS)) {
    const res = await request(demo.app).get(url).set('Accept', 'application/ld+json');
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    const text = res.text.replaceAll(demo.data.iiifBase, TEST_BASE_URL);
    examples[operationId] = { url, value: JSON.parse(text) as unknown };
  }
  writeFileSync(new URL('../src/openapi/openapi-examples.json', import.meta.url), `${JSON.stringify(examples, null, 1)}\n`);
  console.log(`${Object.keys(examples).length} examples written`);
} finally {
  await demo.close();
}
