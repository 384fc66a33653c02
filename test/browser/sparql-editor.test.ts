/**
 * The query editor in a real browser (issue 7, "In a browser"): headless Debian Chromium driven by
 * playwright-core loads /sparql, picks an example query, runs it and sees result rows. Every request the page
 * makes must go to this service (no CDN, no remote autocompletion). Skipped, saying why, when no Chromium
 * is installed (`.ci/run` installs Debian's).
 */
import { EXAMPLE_QUERIES } from '../../src/sparql/examples.js';
import { describeWithChromium, useBrowserSession, requestsLeaving } from '../helpers/browser.js';

describeWithChromium('test/browser/sparql-editor.test.ts')('the SPARQL query editor in headless Chromium', () => {
  const session = useBrowserSession();

  it('runs an example query from the page and shows its rows, without leaving this service', async () => {
    const page = await session.browser.newPage();
    const elsewhere = requestsLeaving(page, session.origin);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    await page.goto(`${session.origin}/sparql`);
    await page.waitForSelector('.yasqe .CodeMirror');
    const example = EXAMPLE_QUERIES.find((e) => e.id === 'designers-by-nationality');
    expect(example).toBeDefined();
    await page.click(`button[data-example="${example?.id}"]`);
    const text = await page.evaluate(() => {
      const yasgui = (window as unknown as { museumYasgui: { getTab(): { getQuery(): string } } }).museumYasgui;
      return yasgui.getTab().getQuery();
    });
    expect(text).toBe(example?.query);

    const answered = page.waitForResponse((res) => res.url().startsWith(`${session.origin}/sparql`) && res.request().method() === 'POST');
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
