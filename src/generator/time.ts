/**
 * Record timestamps: `modified` dates spread over recent years (more recent ones more often) and
 * `harvestedAt` instants of one harvest run early in March 2026, written with the Brussels winter offset.
 * Everything derives from the seeded stream, never from the clock.
 */
import type { Rng } from './rng.js';

const DAY = 86_400_000;
const MODIFIED_FIRST = Date.UTC(2019, 0, 1);
const MODIFIED_LAST = Date.UTC(2026, 1, 27);
/** 2026-03-01T02:00:00+01:00: when the demo harvest started. */
const HARVEST_START = Date.UTC(2026, 2, 1, 1, 0, 0);
const HARVEST_SECONDS = 5 * 3600;
const OFFSET_MS = 3_600_000;

/** `YYYY-MM-DD` of a UTC instant. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` a number of days after a `YYYY-MM-DD` date. */
export function addDays(day: string, days: number): string {
  return isoDay(Date.parse(`${day}T00:00:00Z`) + days * DAY);
}

/** A last-modified date between 2019-01-01 and 2026-02-27, skewed towards recent dates. */
export function modifiedDate(rng: Rng): string {
  const span = Math.round((MODIFIED_LAST - MODIFIED_FIRST) / DAY);
  const back = Math.floor(span * Math.pow(rng.next(), 1.6));
  return isoDay(MODIFIED_LAST - back * DAY);
}

/** An ISO 8601 timestamp with offset +01:00 within the five hours of the demo harvest. */
export function harvestTimestamp(rng: Rng): string {
  const utc = HARVEST_START + rng.int(0, HARVEST_SECONDS) * 1000;
  return `${new Date(utc + OFFSET_MS).toISOString().slice(0, 19)}+01:00`;
}

/** The two timestamps every record carries. */
export function recordTimes(rng: Rng): { harvestedAt: string; modified: string } {
  return { harvestedAt: harvestTimestamp(rng), modified: modifiedDate(rng) };
}
