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

  it('applies one pid rule to every kind, so a string off one kind’s export shape is still a pid', () => {
    const kinds = ['object', 'agent', 'exhibition', 'concept'] as const;
    for (const pid of ['conformance-no-such-record-7f3a9c', 'TE-1999', 'TE_2020-001', 'DMG-A-00162', '530000049', '1998-0024_044-755', 'x'.repeat(64)]) {
      for (const kind of kinds) expect([kind, pid, isValidPid(kind, pid)]).toEqual([kind, pid, true]);
    }
    for (const bad of ['', 'a b', '\u0000', 'x'.repeat(65), 'x'.repeat(300), '.hidden', '-x', 'a/b', 'a%20b']) {
      for (const kind of kinds) expect([kind, bad.slice(0, 10), isValidPid(kind, bad)]).toEqual([kind, bad.slice(0, 10), false]);
    }
  });

  it('reads the pid back from a record IRI of this deployment only', () => {
    expect(iris.pidOf('object', 'http://localhost:3000/v2/id/object/TUP-0073')).toBe('TUP-0073');
    expect(iris.pidOf('object', 'http://elsewhere/v2/id/object/TUP-0073')).toBeUndefined();
  });
});
