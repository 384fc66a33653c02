/**
 * Browser tests: headless Debian Chromium (`.ci/run` installs it with apt-get; never a downloaded browser)
 * driven by playwright-core, against the demo app listening on a real port of 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDemoApp, type DemoApp } from './demo.js';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** `describe`, or `describe.skip` with a warning naming `file` when no Chromium is installed. */
export function describeWithChromium(file: string): jest.Describe {
  if (CHROMIUM !== undefined) return describe;
  // Visible in the test output, so a skipped browser test is never mistaken for a passing one.
  console.warn(`${file} skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)`);
  return describe.skip;
}

export interface BrowserSession {
  demo: DemoApp;
  browser: Browser;
  /** `http://127.0.0.1:<port>` of the app. */
  origin: string;
  close(): Promise<void>;
}

/**
 * The browser session of one describe block: started before its tests, closed after them. The object returned is
 * filled in when the session starts, so its fields are read inside tests and hooks only.
 */
export function useBrowserSession(): BrowserSession {
  const live = {} as BrowserSession;
  let started: BrowserSession | undefined;
  beforeAll(async () => {
    started = await startBrowserSession();
    Object.assign(live, started);
  });
  afterAll(async () => {
    await started?.close();
  });
  return live;
}

/**
 * Collects every URL `page` requests outside `origin` and the page's own URL schemes (`data:` and, for the pages
 * that build objects in the browser, `blob:`).
 */
export function requestsLeaving(page: Page, origin: string, ownSchemes: readonly string[] = ['data:', 'blob:']): string[] {
  const elsewhere: string[] = [];
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !ownSchemes.some((scheme) => url.startsWith(scheme))) elsewhere.push(url);
  });
  return elsewhere;
}

/** The demo app (with /sparql) on a free port and a headless Chromium with the flags the guide names. */
export async function startBrowserSession(): Promise<BrowserSession> {
  // A free port first, so that the app's IIIF answers (info.json, manifests) name the origin the browser uses.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const origin = `http://127.0.0.1:${port}`;
  const demo = await startDemoApp({}, { sparql: true, iiifRouterBase: origin });
  const server = await new Promise<Server>((resolve) => {
    const s = demo.app.listen(port, '127.0.0.1', () => resolve(s));
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
  return {
    demo,
    browser,
    origin,
    close: async () => {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      await demo.close();
    },
  };
}
