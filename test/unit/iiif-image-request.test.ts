import { checkImageRequest, type ImageRequestParams } from '../../src/iiif/image-request.js';

const IMAGE = { width: 800, height: 600 };
const req = (region: string, size: string, rotation = '0', quality = 'default', format = 'jpg'): ImageRequestParams => ({
  region,
  size,
  rotation,
  quality,
  format,
});

describe('checkImageRequest', () => {
  it.each([
    [req('full', 'max'), 'full/max/0/default.jpg', 'image/jpeg'],
    // square of 800 x 600: 600 x 600 from x = (800 - 600) / 2 = 100.
    [req('square', '200,', '90', 'gray', 'jpeg'), '100,0,600,600/200,200/90/gray.jpg', 'image/jpeg'],
    [req('pct:50,50,50,50', 'max', '!0', 'default', 'png'), '400,300,400,300/max/!0/default.png', 'image/png'],
    // !400,400 keeps 4:3 inside a 400 x 400 box: 400 x 300.
    [req('full', '!400,400'), 'full/400,300/0/default.jpg', 'image/jpeg'],
    [req('full', '^pct:200', '0', 'color', 'webp'), 'full/^1600,1200/0/color.webp', 'image/webp'],
    [req('700,500,400,400', ',50', '0', 'bitonal', 'tiff'), '700,500,100,100/50,50/0/bitonal.tif', 'image/tiff'],
  ])('accepts %j with canonical path %s and type %s', (params, canonicalPath, contentType) => {
    expect(checkImageRequest(IMAGE, params)).toEqual({ ok: true, canonicalPath, contentType });
  });

  it.each([
    ['the 2.x size full', req('full', 'full')],
    ['upscaling without ^', req('full', '801,')],
    ['a region starting on the right edge', req('800,0,10,10', 'max')],
    ['a region below the image', req('0,601,10,10', 'max')],
    ['an empty region', req('0,0,0,10', 'max')],
    ['a size of no pixels', req('0,0,10,10', 'pct:1')],
    ['a rotation past 360', req('full', 'max', '360.5')],
    ['an unknown quality', req('full', 'max', '0', 'sepia')],
    ['an unknown format', req('full', 'max', '0', 'default', 'bmp')],
    ['a malformed region', req('1,2,3', 'max')],
  ])('refuses %s', (_what, params) => {
    expect(checkImageRequest(IMAGE, params)).toEqual({ ok: false, message: expect.any(String) });
  });
});
