import { imageIdOf, imageServiceUrl, imageUrls, manifestUrl } from '../../src/iiif/urls.js';

describe('IIIF URL patterns', () => {
  it('derives the full image (full/max, Image API 3 syntax) and the 400-pixel thumbnail from a service base', () => {
    expect(imageUrls('https://data.museum.test/iiif/3/img-1')).toEqual({
      full: 'https://data.museum.test/iiif/3/img-1/full/max/0/default.jpg',
      thumbnail: 'https://data.museum.test/iiif/3/img-1/full/400,/0/default.jpg',
    });
  });

  it('puts image services and manifests under <baseUrl>/iiif whether or not the base ends in a slash', () => {
    expect(imageServiceUrl('https://data.museum.test/', 'img-1')).toBe('https://data.museum.test/iiif/3/img-1');
    expect(manifestUrl('https://data.museum.test', '1987-1105')).toBe('https://data.museum.test/iiif/manifest/1987-1105');
  });

  it('keeps the + of object numbers literal and escapes characters that cannot stand in a path', () => {
    expect(manifestUrl('https://data.museum.test', '2017-0095_1+3')).toBe('https://data.museum.test/iiif/manifest/2017-0095_1+3');
    expect(imageServiceUrl('https://data.museum.test', 'a b/c')).toBe('https://data.museum.test/iiif/3/a%20b%2Fc');
  });

  it('reads the image id back from a service base and from nothing else', () => {
    expect(imageIdOf('https://data.museum.test/iiif/3/img-1')).toBe('img-1');
    expect(imageIdOf('https://data.museum.test/iiif/3/img-1/')).toBe('img-1');
    expect(imageIdOf('https://data.museum.test/iiif/3/a%20b')).toBe('a b');
    expect(imageIdOf('https://data.museum.test/iiif/2/img-1')).toBeUndefined();
    expect(imageIdOf('https://data.museum.test/iiif/3/img-1/info.json')).toBeUndefined();
    expect(imageIdOf('https://data.museum.test/iiif/3/%E0%A4%A')).toBeUndefined();
  });
});
