/**
 * The pages for people in a real browser (issue 25): headless Debian Chromium driven by playwright-core walks
 * landing → search "stoel" → a facet → an object → its maker → an exhibition the maker took part in → a concept
 * → its broader concept, by clicking the links the pages show. On each page: a screenshot (a PNG), every link and
 * image of the page answers 200 (images load; links are asked with the browser's Accept), axe-core finds no
 * serious or critical violation, and no request leaves the service's origin.
 */
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describeWithChromium, useBrowserSession, requestsLeaving } from '../helpers/browser.js';
import { sourceRecords } from '../helpers/demo.js';

const SCREENSHOT_DIR = new URL('../../.cache/screenshots/pages/', import.meta.url);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

describeWithChromium('test/browser/pages.test.ts')('pages for people in headless Chromium', () => {
  const session = useBrowserSession();
  const checkedLinks = new Map<string, number>();

  beforeAll(() => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });

  /** Screenshot, links, images and axe-core on the page now shown; returns the page's hrefs. */
  async function check(page: Page, name: string): Promise<string[]> {
    // Lazy images below the fold are loaded now, so that each one is checked (and shown in the screenshot).
    await page.evaluate(() =>
      Promise.all(
        [...document.images].map((img) => {
          img.loading = 'eager';
          return img.complete ? undefined : new Promise((resolve) => img.addEventListener('load', resolve) ?? img.addEventListener('error', resolve));
        }),
      ),
    );
    const file = new URL(`${name}.png`, SCREENSHOT_DIR);
    await page.screenshot({ path: file.pathname, fullPage: true });
    expect(readFileSync(file).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

    // Every image has loaded (a broken one has no natural width).
    const images = await page.locator('img').evaluateAll((nodes) => nodes.map((n) => ({ src: (n as HTMLImageElement).currentSrc, width: (n as HTMLImageElement).naturalWidth })));
    for (const image of images) expect([name, image.src, image.width > 0]).toEqual([name, image.src, true]);

    // Every link answers 200 to a browser (each URL asked once per test run).
    const hrefs = await page.locator('a[href]').evaluateAll((nodes) => nodes.map((n) => (n as HTMLAnchorElement).href));
    for (const href of new Set(hrefs)) {
      if (!href.startsWith(session.origin)) continue;
      if (!checkedLinks.has(href)) checkedLinks.set(href, (await fetch(href, { headers: { Accept: BROWSER_ACCEPT }, redirect: 'follow' })).status);
      expect([name, href, checkedLinks.get(href)]).toEqual([name, href, 200]);
    }

    await page.addScriptTag({ content: AXE_SOURCE });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
    });
    expect([name, violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')]).toEqual([name, []]);
    return hrefs;
  }

  /** Clicks the first link whose path matches `pattern` and waits for the page it opens. */
  async function follow(page: Page, pattern: RegExp): Promise<string> {
    const hrefs = await page.locator('main a[href]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('href') ?? ''));
    const href = hrefs.find((h) => pattern.test(h));
    if (href === undefined) throw new Error(`no link matching ${String(pattern)} on ${page.url()}`);
    await Promise.all([page.waitForLoadState('load'), page.locator(`main a[href="${href}"]`).first().click()]);
    await page.waitForURL((url) => url.pathname + url.search === href || url.href === href);
    return href;
  }

  it('walks from the landing page to a broader concept, every page accessible and served from this origin', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    // The pages for people make no blob: URLs: one would count as leaving, as before.
    const elsewhere = requestsLeaving(page, session.origin, ['data:']);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const failed: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    let zoomed = 0;

    expect((await page.goto(`${session.origin}/`))?.status()).toBe(200);
    await check(page, '1-landing');

    // The search box of every page's header.
    await page.fill('header input[name=q]', 'stoel');
    await Promise.all([page.waitForURL(/\/v2\/id\/objects\?q=stoel/), page.click('header form.search button')]);
    expect(await page.locator('h1').innerText()).toBe('Objects');
    const total = Number(/(\d+) results?/.exec(await page.locator('.total').innerText())![1]);
    expect(total).toBeGreaterThan(0);
    await check(page, '2-search');

    // A facet narrows the query: the new total is the count the facet showed.
    const facet = page.locator('.facet li').first();
    const count = Number(await facet.locator('.count').innerText());
    await Promise.all([page.waitForURL(/type=/), facet.locator('a').click()]);
    expect(await page.locator('.total').innerText()).toBe(`${count} ${count === 1 ? 'result' : 'results'}`);
    await check(page, '3-facet');

    // The deep-zoom viewer starts on the object's images (OpenSeadragon from this service) and draws tiles: the
    // first tile is awaited from before the page opens (it may arrive before the viewer's canvas is found).
    const tile = page.waitForResponse((res) => /\/iiif\/3\/[^/]+\/(?!info\.json)/.test(res.url()) && res.status() === 200, { timeout: 20_000 }).then(
      () => true,
      () => false,
    );
    await follow(page, /^\/v2\/id\/object\//);
    expect(await page.locator('.kind').innerText()).toMatch(/^Object/);
    if ((await page.locator('#viewer').count()) > 0) {
      await page.waitForSelector('#viewer .openseadragon-canvas canvas', { timeout: 20_000 });
      expect(await tile).toBe(true);
      expect(await page.locator('#viewer').isVisible()).toBe(true);
      zoomed++;
    }
    await check(page, '4-object');

    // The object's maker (a production or design event carries it).
    await follow(page, /^\/v2\/id\/agent\//);
    expect(await page.locator('.kind').innerText()).toMatch(/^Agent/);
    await check(page, '5-maker');

    // An exhibition: the maker's, or else the object's (back one page).
    const makerExhibitions = await page.locator('main a[href^="/v2/id/exhibition/"]').count();
    if (makerExhibitions === 0) await page.goBack();
    await follow(page, /^\/v2\/id\/exhibition\//);
    expect(await page.locator('.kind').innerText()).toMatch(/^Exhibition/);
    await check(page, '6-exhibition');

    // A concept of the collection, then its broader concept.
    await page.goto(`${session.origin}/v2/id/concepts?q=stoel`);
    await follow(page, /^\/v2\/id\/concept\//);
    const hasBroader = (await page.locator('dt[title="skos:broader"] + dd a[href^="/v2/id/concept/"]').count()) > 0;
    if (!hasBroader) {
      // Not every concept has one: take a concept listed on the first page of the concepts whose source record
      // names a public concept of the thesaurus as its broader term.
      const concepts = sourceRecords(session.demo.data, 'concepts') as { pid: string; public: boolean; broader: unknown[] }[];
      const isPublic = new Set(concepts.filter((c) => c.public).map((c) => c.pid));
      const withBroader = new Set(concepts.filter((c) => c.public && c.broader.some((ref) => typeof ref === 'string' && ref !== c.pid && isPublic.has(ref))).map((c) => `/v2/id/concept/${c.pid}`));
      await page.goto(`${session.origin}/v2/id/concepts?itemsPerPage=100`);
      const candidates = await page.locator('.members a').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('href') ?? ''));
      const href = candidates.find((h) => withBroader.has(h));
      expect(href).toBeDefined();
      await page.goto(`${session.origin}${href!}`);
    }
    await check(page, '7-concept');
    const broader = await page.locator('dt[title="skos:broader"] + dd a[href^="/v2/id/concept/"]').first().getAttribute('href');
    await Promise.all([page.waitForURL(`${session.origin}${broader!}`), page.locator(`dt[title="skos:broader"] + dd a[href="${broader!}"]`).first().click()]);
    expect(await page.locator('.kind').innerText()).toMatch(/^Concept/);
    await check(page, '8-broader-concept');

    expect(zoomed).toBe(1);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    expect(failed).toEqual([]);
    await page.close();
  }, 180_000);

  it('walks both ways: a concept → its objects → an object’s maker → the maker’s objects, every page accessible', async () => {
    const page = await session.browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const elsewhere = requestsLeaving(page, session.origin, ['data:']);
    const failed: string[] = [];
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    const clickAndWait = async (selector: string): Promise<string> => {
      const href = (await page.locator(selector).first().getAttribute('href'))!;
      await Promise.all([page.waitForURL((url) => url.pathname + url.search === href), page.locator(selector).first().click()]);
      return href;
    };

    // Concept 530001038 (issue 43: it has objects, and its page did not lead to them).
    expect((await page.goto(`${session.origin}/v2/id/concept/530001038`))?.status()).toBe(200);
    const conceptObjects = Number(await page.locator('.linked h2 .count').first().innerText());
    expect(conceptObjects).toBeGreaterThan(0);
    await check(page, '9-concept-with-objects');

    const object = await clickAndWait('.linked .card a');
    expect(object).toMatch(/^\/v2\/id\/object\//);
    expect(await page.locator('.kind').innerText()).toMatch(/^Object/);
    // Its key facts come first and name its maker.
    expect(await page.locator('.key-facts dt').first().innerText()).toBe('Maker');
    await check(page, '10-object-of-concept');

    const maker = await clickAndWait('.key-facts a[href^="/v2/id/agent/"]');
    expect(await page.locator('.kind').innerText()).toMatch(/^Agent/);
    const makerObjects = Number(await page.locator('.linked h2 .count').first().innerText());
    expect(makerObjects).toBeGreaterThan(0);
    // The maker's objects include the one we came from when they fit on the page.
    const cards = await page.locator('.linked .card a').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('href')));
    if (makerObjects <= cards.length) expect(cards).toContain(object);
    await check(page, '11-maker-with-objects');

    // Every object of the maker: the objects collection filtered on the agent, as many as the page said.
    await page.goto(`${session.origin}/v2/id/objects?agent=${encodeURIComponent(maker.split('/').pop()!)}`);
    expect(await page.locator('.total').innerText()).toBe(`${makerObjects} ${makerObjects === 1 ? 'result' : 'results'}`);
    await check(page, '12-maker-objects');
    await clickAndWait('.members .card a');
    expect(await page.locator('.kind').innerText()).toMatch(/^Object/);
    await check(page, '13-maker-object');

    expect(elsewhere).toEqual([]);
    expect(failed).toEqual([]);
    await page.close();
  }, 180_000);
});
