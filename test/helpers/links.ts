/** Following the service's own links in tests: its IRIs carry the demo's base, the app is driven with supertest. */
import type { Express } from 'express';
import request from 'supertest';
import { TEST_BASE_URL } from './demo.js';

/** The path of a link of the service (the base the demo's IRIs use stripped), checked to be one. */
export function servicePath(url: string): string {
  expect(url.startsWith(`${TEST_BASE_URL}/`)).toBe(true);
  return url.slice(TEST_BASE_URL.length);
}

/** `hydra:totalItems` of the collection a link names, followed on the app (which must answer 200). */
export async function hydraTotal(app: Express, url: string): Promise<number> {
  const res = await request(app).get(servicePath(url));
  expect([url, res.status]).toEqual([url, 200]);
  return (JSON.parse(res.text) as Record<string, unknown>)['hydra:totalItems'] as number;
}
