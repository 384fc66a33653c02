import { Iris, isValidPid } from '../../src/vocab/iris.js';

describe('IRI minting', () => {
  const iris = new Iris('http://localhost:3000/');

  it('mints record IRIs under {base}/v2/id/<kind>/<pid>', () => {
    expect(iris.object('1987-1105')).toBe('http://localhost:3000/v2/id/object/1987-1105');
    expect(iris.exhibition('TE_2020-001')).toBe('http://localhost:3000/v2/id/exhibition/TE_2020-001');
  });

  it('refuses pids that could break out of an IRI', () => {
    for (const bad of ['a>b', 'x y', '', '../etc', 'a"b', 'é', 'x\n']) expect(isValidPid('object', bad)).toBe(false);
    expect(() => iris.object('a>b')).toThrow();
  });

  it('reads the pid back from a record IRI of this deployment only', () => {
    expect(iris.pidOf('object', 'http://localhost:3000/v2/id/object/TUP-0073')).toBe('TUP-0073');
    expect(iris.pidOf('object', 'http://elsewhere/v2/id/object/TUP-0073')).toBeUndefined();
  });
});
