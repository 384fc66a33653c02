/**
 * The API documentation page in a real browser: headless Debian Chromium driven by playwright-core loads
 * /docs, Swagger UI renders the operations of /openapi.json (one of them GET /v2/id/objects), and a
 * screenshot of the rendered page is a PNG. Every request the page makes must go to this service (no CDN, no
 * validator badge, no telemetry). Skipped, saying why, when no Chromium is installed (`.ci/run` installs
 * Debian's).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { describeWithChromium, useBrowserSession, requestsLeaving } from '../helpers/browser.js';

const SCREENSHOT_DIR = new URL('../../.cache/screenshots/', import.meta.url);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describeWithChromium('test/browser/api-docs.test.ts')('the API documentation page in headless Chromium', () => {
  const session = useBrowserSession();

  it('renders every operation of /openapi.json from this service alone, and screenshots as a PNG', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const elsewhere = requestsLeaving(page, session.origin);
    const errors: string[] = [];
    const failed: string[] = [];
    page.on('requestfailed', (req) => failed.push(`${req.url()}: ${req.failure()?.errorText ?? ''}`));
    page.on('pageerror', (err) => errors.push(err.message));

    const documentLoaded = page.waitForResponse((res) => res.url() === `${session.origin}/openapi.json`);
    const response = await page.goto(`${session.origin}/docs`);
    expect(response?.status()).toBe(200);
    expect((await documentLoaded).status()).toBe(200);

    // The operations are rendered: one block per operation, GET /v2/id/objects among them.
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const paths = await page.locator('.opblock .opblock-summary-path').evaluateAll((nodes) => nodes.map((n) => (n.getAttribute('data-path') ?? n.textContent ?? '').replace(/\u200b/g, '').trim()));
    expect(paths).toContain('/v2/id/objects');
    expect(paths).toContain('/v2/id/object/{pid}');
    expect(paths).toContain('/v2/id/production');
    const served = (JSON.parse(await (await fetch(`${session.origin}/openapi.json`)).text()) as { paths: Record<string, Record<string, unknown>> }).paths;
    const operationCount = Object.values(served).reduce((n, item) => n + Object.keys(item).filter((k) => ['get', 'post'].includes(k)).length, 0);
    expect(await page.locator('.opblock').count()).toBe(operationCount);
    // The document's title is shown, and Swagger UI reports no error rendering it.
    await page.waitForSelector('.info .title');
    expect(await page.locator('.info .title').innerText()).toContain('Collection API v2');
    expect(await page.locator('.errors-wrapper').count()).toBe(0);

    // Opening an operation shows its parameters, taken from the kinds' declarations.
    await page.locator('#operations-Collections-listObjects .opblock-summary').first().click();
    await page.waitForSelector('#operations-Collections-listObjects tr[data-param-name="koepels"]');

    // A record's response schema (schemas/object.schema.json, embedded with its $defs) resolves and renders.
    await page.locator('#operations-Records-getObject .opblock-summary').first().click();
    await page.locator('#operations-Records-getObject .responses-wrapper button[data-name="model"]').first().click();
    const model = page.locator('#operations-Records-getObject .model-box').first();
    await model.locator('.json-schema-2020-12__title').first().waitFor();
    expect(await model.locator('.json-schema-2020-12__title').first().innerText()).toBe('ObjectRecord');
    expect(await model.innerText()).toContain('crm:P108i_was_produced_by');
    // Expanding identifiers follows `#/components/schemas/ObjectRecord/$defs/identifier` to its constant type.
    const identifiers = model.locator('.json-schema-2020-12-property', { hasText: 'crm:P1_is_identified_by' }).first();
    await identifiers.locator('.json-schema-2020-12-expand-deep-button').first().click();
    await page.waitForFunction(() => document.querySelector('#operations-Records-getObject .model-box')?.textContent?.includes('crm:E42_Identifier'));
    expect(await page.locator('body').innerText()).not.toMatch(/Could not resolve/i);

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = new URL('api-docs.png', SCREENSHOT_DIR);
    await page.screenshot({ path: file.pathname, fullPage: false });
    const png = readFileSync(file);
    expect(png.length).toBeGreaterThan(10_000);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

    expect(elsewhere).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
