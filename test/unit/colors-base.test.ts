import { BASE_COLORS, baseColorOf } from '../../src/colors/base-colors.js';
import { hexToLab } from '../../src/colors/color-space.js';

/**
 * Swatches and the base colour a person gives them, picked by looking at the swatch (CSS and common names
 * for reference), not by running the rule.
 */
const SWATCHES: [hex: string, label: string, expected: (typeof BASE_COLORS)[number]][] = [
  // reds
  ['#ff0000', 'red', 'red'],
  ['#b22222', 'firebrick', 'red'],
  ['#dc143c', 'crimson', 'red'],
  ['#800000', 'maroon', 'red'],
  ['#8b0000', 'dark red', 'red'],
  ['#e34234', 'vermilion', 'red'],
  ['#c41e3a', 'cardinal', 'red'],
  // oranges
  ['#ffa500', 'orange', 'orange'],
  ['#ff8c00', 'dark orange', 'orange'],
  ['#ff7f50', 'coral', 'orange'],
  ['#f28500', 'tangerine', 'orange'],
  ['#ff6600', 'safety orange', 'orange'],
  ['#cc5500', 'burnt orange', 'orange'],
  // light oranges: salmon, apricot, peach (not brown)
  ['#ffa07a', 'light salmon', 'orange'],
  ['#e9967a', 'dark salmon', 'orange'],
  ['#fbceb1', 'apricot', 'orange'],
  ['#f2c6a1', 'avid apricot', 'orange'],
  ['#ffcba4', 'peach', 'orange'],
  // yellows
  ['#ffff00', 'yellow', 'yellow'],
  ['#ffd700', 'gold', 'yellow'],
  ['#fff44f', 'lemon', 'yellow'],
  ['#e1ad01', 'mustard', 'yellow'],
  ['#f4c430', 'saffron', 'yellow'],
  // greens
  ['#008000', 'green', 'green'],
  ['#00ff00', 'lime', 'green'],
  ['#228b22', 'forest green', 'green'],
  ['#808000', 'olive', 'green'],
  ['#6b8e23', 'olive drab', 'green'],
  ['#556b2f', 'dark olive green', 'green'],
  ['#98fb98', 'pale green', 'green'],
  ['#2e8b57', 'sea green', 'green'],
  // blues
  ['#0000ff', 'blue', 'blue'],
  ['#000080', 'navy', 'blue'],
  ['#191970', 'midnight blue', 'blue'],
  ['#87ceeb', 'sky blue', 'blue'],
  ['#add8e6', 'light blue', 'blue'],
  ['#4169e1', 'royal blue', 'blue'],
  ['#1e90ff', 'dodger blue', 'blue'],
  ['#4682b4', 'steel blue', 'blue'],
  ['#00ffff', 'cyan', 'blue'],
  ['#008080', 'teal', 'blue'],
  // purples
  ['#800080', 'purple', 'purple'],
  ['#8b008b', 'dark magenta', 'purple'],
  ['#8a2be2', 'blue violet', 'purple'],
  ['#9370db', 'medium purple', 'purple'],
  ['#4b0082', 'indigo', 'purple'],
  ['#663399', 'rebecca purple', 'purple'],
  ['#b57edc', 'lavender (floral)', 'purple'],
  // pinks
  ['#ffc0cb', 'pink', 'pink'],
  ['#ffb6c1', 'light pink', 'pink'],
  ['#ff69b4', 'hot pink', 'pink'],
  ['#ff1493', 'deep pink', 'pink'],
  ['#db7093', 'pale violet red', 'pink'],
  ['#c08081', 'old rose', 'pink'],
  // browns, tans, beige, skin tones
  ['#8b4513', 'saddle brown', 'brown'],
  ['#a0522d', 'sienna', 'brown'],
  ['#7b3f00', 'chocolate', 'brown'],
  ['#654321', 'dark brown', 'brown'],
  ['#5c4033', 'dark taupe brown', 'brown'],
  ['#6f4e37', 'coffee', 'brown'],
  ['#4a2c2a', 'dark reddish brown', 'brown'],
  ['#d2b48c', 'tan', 'brown'],
  ['#c19a6b', 'camel', 'brown'],
  ['#d8c3a5', 'beige (paint)', 'brown'],
  ['#8d5524', 'skin tone, dark', 'brown'],
  ['#c68642', 'skin tone, medium', 'brown'],
  ['#e0ac69', 'skin tone, light tan', 'brown'],
  ['#deb887', 'burlywood', 'brown'],
  ['#e5aa70', 'fawn', 'brown'],
  // greys
  ['#808080', 'grey', 'grey'],
  ['#a9a9a9', 'dark grey (CSS)', 'grey'],
  ['#d3d3d3', 'light grey', 'grey'],
  ['#c0c0c0', 'silver', 'grey'],
  ['#696969', 'dim grey', 'grey'],
  ['#555555', 'dark grey', 'grey'],
  ['#708090', 'slate grey', 'grey'],
  ['#778899', 'light slate grey', 'grey'],
  ['#8a8a80', 'warm grey', 'grey'],
  ['#bdc3c7', 'cool light grey', 'grey'],
  // near-black
  ['#000000', 'black', 'black'],
  ['#0a0a0a', 'near black', 'black'],
  ['#1c1c1c', 'eerie black', 'black'],
  ['#101820', 'blue-black', 'black'],
  ['#1a1a2e', 'very dark navy', 'black'],
  // near-white
  ['#ffffff', 'white', 'white'],
  ['#f5f5f5', 'white smoke', 'white'],
  ['#fffff0', 'ivory', 'white'],
  ['#fffaf0', 'floral white', 'white'],
  ['#f8f8ff', 'ghost white', 'white'],
  ['#faebd7', 'antique white', 'white'],
  ['#f5f5dc', 'beige (CSS, a pale cream)', 'white'],
];

describe('base colours (spec "Object record": base colours)', () => {
  it.each(SWATCHES)('names %s (%s) %s', (hex, _label, expected) => {
    expect(baseColorOf(hexToLab(hex))).toBe(expected);
  });

  it('covers every base colour with at least two swatches', () => {
    for (const base of BASE_COLORS) expect(SWATCHES.filter(([, , e]) => e === base).length).toBeGreaterThanOrEqual(2);
  });

  it('gives one of the eleven base colours for any colour, in or out of gamut', () => {
    for (let l = 0; l <= 100; l += 5) {
      for (let a = -120; a <= 120; a += 20) {
        for (let b = -120; b <= 120; b += 20) expect(BASE_COLORS).toContain(baseColorOf({ l, a, b }));
      }
    }
  });
});
