/**
 * The query editor in a real browser (issue 7, "In a browser"): headless Debian Chromium driven by
 * playwright-core loads /sparql, picks an example query, runs it and sees result rows. Every request the page
 * makes must go to this service (no CDN, no remote autocompletion). Skipped, saying why, when no Chromium
 * is installed (`.ci/run` installs Debian's).
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { EXAMPLE_QUERIES } from '../../src/sparql/examples.js';
import { startDemoApp, type DemoApp } from '../helpers/demo.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const describeWithChromium = CHROMIUM === undefined ? describe.skip : describe;
if (CHROMIUM === undefined) {
  // Visible in the test output, so a skipped browser test is never mistaken for a passing one.
  console.warn('test/browser/sparql-editor.test.ts skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)');
}

describeWithChromium('the SPARQL query editor in headless Chromium', () => {
  let demo: DemoApp;
  let server: Server;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    demo = await startDemoApp({}, { sparql: true });
    server = await new Promise<Server>((resolve) => {
      const s = demo.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await demo?.close();
  });

  it('runs an example query from the page and shows its rows, without leaving this service', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const errors: string[] = [];
    page.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
    });
    page.on('pageerror', (err) => errors.push(err.message));

    await page.goto(`${origin}/sparql`);
    await page.waitForSelector('.yasqe .CodeMirror');
    const example = EXAMPLE_QUERIES.find((e) => e.id === 'designers-by-nationality');
    expect(example).toBeDefined();
    await page.click(`button[data-example="${example?.id}"]`);
    const text = await page.evaluate(() => {
      const yasgui = (window as unknown as { museumYasgui: { getTab(): { getQuery(): string } } }).museumYasgui;
      return yasgui.getTab().getQuery();
    });
    expect(text).toBe(example?.query);

    const answered = page.waitForResponse((res) => res.url().startsWith(`${origin}/sparql`) && res.request().method() === 'POST');
    await page.click('.yasqe_queryButton');
    const response = await answered;
    expect(response.status()).toBe(200);
    await page.waitForSelector('.yasr table tbody tr td');
    const firstRow = await page.locator('.yasr table tbody tr').first().innerText();
    expect(firstRow).toMatch(/Belgium|France|Italy/);
    expect(await page.locator('.yasr table tbody tr').count()).toBeGreaterThan(1);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
