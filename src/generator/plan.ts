/**
 * The object plan: every object number of the collection with what must be decided across objects before
 * any record is written (set membership, state and redirect target, health, privacy, display, image mode).
 * It is small (a few fields per object), so record content can then be generated one object at a time.
 */
import type { RecordState } from '../harvest/schema.js';
import { OBJECT_ANCHORS, SET_ANCHORS, type ImageMode, type ObjectAnchor, type Traits } from './anchors.js';
import { Rng } from './rng.js';
import { pad } from './text.js';
import { FAMILIES, familyByKey, type Family } from './vocabulary/families.js';
import { MODEL_NAMES } from './vocabulary/phrases.js';

export interface SetInfo {
  koepel: string;
  /** 1-based position of a member; 0 for the koepelrecord. */
  position: number;
  size: number;
  name: string;
}

export interface ObjectPlan {
  number: string;
  /** Position in objects.jsonl. */
  index: number;
  /** Year in the object number, read as the acquisition year. */
  acqYear?: number;
  family: Family;
  role: 'single' | 'koepel' | 'member';
  set?: SetInfo;
  state: RecordState;
  public: boolean;
  healthy: boolean;
  onDisplay: boolean;
  imageMode: ImageMode;
  /** Exhibition pids, filled in by the exhibition plan. */
  exhibitions: string[];
  traits: Traits;
  anchor?: ObjectAnchor;
}

export interface ObjectsPlan {
  objects: ObjectPlan[];
  byNumber: ReadonlyMap<string, ObjectPlan>;
}

const YEAR_RANGES: readonly (readonly [readonly [number, number], number])[] = [
  [[1903, 1950], 15],
  [[1951, 1979], 20],
  [[1980, 1999], 35],
  [[2000, 2025], 30],
];

/** Number of objects the fixed anchors take (the collection never has fewer). */
export function anchorObjectCount(): number {
  const setNumbers = new Set(SET_ANCHORS.flatMap((s) => setNumbersOf(s.base, s.size, s.padded === true)));
  return setNumbers.size + OBJECT_ANCHORS.filter((a) => !setNumbers.has(a.number)).length;
}

function setNumbersOf(base: string, size: number, padded: boolean): string[] {
  const width = padded ? String(size).length : 1;
  const out = [`${base}_0-${size}`];
  for (let x = 1; x <= size; x++) out.push(`${base}_${pad(x, width)}-${size}`);
  return out;
}

function yearOf(number: string): number | undefined {
  const m = /^(\d{4})-/.exec(number);
  const year = m ? Number(m[1]) : NaN;
  return year >= 1900 && year <= 2030 ? year : undefined;
}

/** Plans `count` objects (at least the anchors) for the seed. */
export function planObjects(seed: number, count: number): ObjectsPlan {
  const rng = new Rng(seed, 'plan');
  const plans: ObjectPlan[] = [];
  const anchorsByNumber = new Map(OBJECT_ANCHORS.map((a) => [a.number, a]));
  const taken = new Set<string>();

  const make = (number: string, family: Family, role: ObjectPlan['role'], set?: SetInfo): ObjectPlan => {
    const anchor = anchorsByNumber.get(number);
    const plan: ObjectPlan = {
      number,
      index: 0,
      family: anchor ? familyByKey(anchor.family) : family,
      role,
      state: anchor?.state ?? { kind: 'current' },
      public: anchor?.public ?? true,
      healthy: anchor?.healthy ?? true,
      onDisplay: anchor?.onDisplay ?? false,
      imageMode: anchor?.traits?.imageMode ?? 'ok',
      exhibitions: [],
      traits: anchor?.traits ?? {},
    };
    const year = yearOf(number);
    if (year !== undefined) plan.acqYear = year;
    if (set) plan.set = set;
    if (anchor) plan.anchor = anchor;
    if (taken.has(number)) throw new Error(`plan: object number ${number} used twice`);
    taken.add(number);
    plans.push(plan);
    return plan;
  };
  const makeSet = (base: string, size: number, padded: boolean, family: Family, name: string): ObjectPlan[] => {
    const numbers = setNumbersOf(base, size, padded);
    const koepel = numbers[0] as string;
    return numbers.map((n, position) => make(n, family, position === 0 ? 'koepel' : 'member', { koepel, position, size, name }));
  };

  for (const s of SET_ANCHORS) makeSet(s.base, s.size, s.padded === true, familyByKey(s.family), s.setName);
  for (const a of OBJECT_ANCHORS) if (!taken.has(a.number)) make(a.number, familyByKey(a.family), 'single');

  // Numbers the generated objects must not take: anchors, and the serials below 100 of 2000 (the case anchors).
  const reservedBases = new Set(SET_ANCHORS.map((s) => s.base));
  const counters = new Map<number, number>([[2000, 100]]);
  const isFree = (n: string): boolean => !taken.has(n) && !reservedBases.has(n);
  const yearNumber = (year: number): string => {
    for (;;) {
      const serial = counters.get(year) ?? 1;
      counters.set(year, serial + 1);
      const n = `${year}-${pad(serial, 4)}`;
      if (isFree(n)) return n;
    }
  };
  let plainSerial = 1;
  let tupSerial = 1;
  const familyWeights = FAMILIES.map((f) => [f, f.weight] as const);
  const familyFor = (year: number | undefined): Family => {
    for (let i = 0; i < 10; i++) {
      const f = rng.weighted(familyWeights);
      if (year === undefined || f.years[0] <= year) return f;
    }
    return familyByKey('vase');
  };

  const generated: ObjectPlan[] = [];
  while (plans.length < count) {
    const remaining = count - plans.length;
    const roll = rng.next();
    if (roll < 0.004) {
      let n: string;
      do n = `TUP-${pad(tupSerial++, 4)}`;
      while (!isFree(n));
      const plan = make(n, familyByKey('plastics'), 'single');
      plan.traits = { maker: 'tupperware', acquisition: 'bruikleen' };
      generated.push(plan);
      continue;
    }
    if (roll < 0.07 && plainSerial < 9999) {
      let n: string;
      do n = pad(plainSerial++, 4);
      while (!isFree(n) && plainSerial < 9999);
      if (isFree(n)) {
        generated.push(make(n, familyFor(undefined), 'single'));
        continue;
      }
    }
    const [from, to] = rng.weighted(YEAR_RANGES);
    const year = rng.int(from, to);
    if (remaining >= 3 && rng.chance(0.025)) {
      const size = Math.min(remaining - 1, rng.chance(0.85) ? rng.int(2, 6) : rng.int(7, 16));
      const base = yearNumber(year);
      const members = makeSet(base, size, size >= 10 && rng.chance(0.5), familyFor(year), rng.pick(MODEL_NAMES));
      for (const m of members) if (m.role === 'member' && rng.chance(0.03)) m.public = false;
      generated.push(...members);
      continue;
    }
    generated.push(make(yearNumber(year), familyFor(year), 'single'));
  }

  for (const plan of generated) {
    if (plan.role === 'single') {
      const r = rng.next();
      if (r < 0.01) plan.state = { kind: 'merged', into: '' };
      else if (r < 0.015) plan.state = { kind: 'renumbered', into: '' };
      else if (r < 0.02) plan.state = { kind: 'withdrawn', into: '' };
      else if (r < 0.025) plan.state = { kind: 'removed' };
      if (plan.state.kind === 'current') {
        if (rng.chance(0.015)) plan.healthy = false;
        if (rng.chance(0.025)) plan.public = false;
      }
    }
    const m = rng.next();
    plan.imageMode = m < 0.15 ? 'none' : m < 0.91 ? 'ok' : m < 0.97 ? 'mixed' : 'allBad';
    if (plan.state.kind === 'current' && plan.public && plan.healthy && rng.chance(0.03)) plan.onDisplay = true;
  }

  plans.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  plans.forEach((p, i) => {
    p.index = i;
  });
  const targets = plans.filter((p) => p.role === 'single' && p.state.kind === 'current' && p.public && p.healthy);
  for (const plan of generated) {
    const state = plan.state;
    if (state.kind === 'merged' || state.kind === 'renumbered' || state.kind === 'withdrawn') {
      let target = rng.pick(targets);
      while (target === plan) target = rng.pick(targets);
      plan.state = { kind: state.kind, into: target.number };
    }
  }
  return { objects: plans, byNumber: new Map(plans.map((p) => [p.number, p])) };
}
