/**
 * The images of a generated object (objects.ts): how many, which of the demo images (good ones of the
 * object's shape, missing or restricted ones) for its image mode, and each image's attribution and rights.
 */
import type { Image } from '../harvest/schema.js';
import type { ConceptInfo } from './concepts.js';
import type { DemoImage } from './images.js';
import type { ObjectContext } from './object-context.js';
import type { ObjectPlan } from './plan.js';
import type { Rng } from './rng.js';
import { PHOTOGRAPHERS } from './vocabulary/phrases.js';

const CC0 = 'https://creativecommons.org/publicdomain/zero/1.0/';
const IN_COPYRIGHT = 'http://rightsstatements.org/vocab/InC/1.0/';

export function imageRecord(rng: Rng, ctx: ObjectContext, id: string, publicDomain: boolean): Image {
  return {
    iiifBase: `${ctx.iiifBase}/iiif/3/${id}`,
    attribution: `© Design Museum Gent, foto: ${rng.pick(PHOTOGRAPHERS)}`,
    rights: publicDomain ? CC0 : IN_COPYRIGHT,
  };
}

/** Images in canvas order for the object's image mode; ids are distinct within an object. */
export function objectImages(rng: Rng, plan: ObjectPlan, ctx: ObjectContext, group: ConceptInfo['group'], publicDomain: boolean): Image[] {
  const chosen = new Set<DemoImage>();
  const add = (pick: () => DemoImage): void => {
    chosen.add(pick());
  };
  const ok = (): DemoImage => ctx.images.pickOk(rng, plan.family.shape, group, chosen);
  const bad = (status?: 'missing' | 'restricted') => (): DemoImage => ctx.images.pickBad(rng, status, chosen);
  const fixed = plan.anchor?.traits?.imageMode !== undefined;
  const own = ctx.images.fixedOf(plan.number);
  if (own && plan.imageMode === 'ok') add(() => ctx.images.byId.get(own) as DemoImage);
  switch (plan.imageMode) {
    case 'none':
      return [];
    case 'allBad':
      if (fixed) {
        add(bad('missing'));
        add(bad('restricted'));
      } else {
        for (let i = rng.int(1, 2); i > 0; i--) add(bad());
      }
      break;
    case 'mixed':
      if (fixed) {
        add(ok);
        add(bad('missing'));
        add(ok);
        add(bad('restricted'));
      } else {
        add(ok);
        for (let i = rng.int(1, 2); i > 0; i--) add(bad());
        if (rng.chance(0.5)) add(ok);
      }
      break;
    default: {
      const n = rng.weighted<number>([
        [1, 70],
        [2, 20],
        [3, 10],
      ]);
      for (let i = 0; i < 10 && chosen.size < n; i++) add(ok);
    }
  }
  return [...chosen].map((image) => imageRecord(rng, ctx, image.id, publicDomain));
}
