import { describe, expect, it } from 'vitest';
import { childPath } from '../../../src/formats/shared/child-path.js';
import type { Path } from '../../../src/model/loss.js';

describe('childPath', () => {
  it('is the spread [...path, a, b?, c?] at every depth, a new array each time', () => {
    for (let n = 0; n <= 7; n++) {
      const path: Path = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? `k${i}` : i));
      const cases: [Path, Path][] = [
        [childPath(path, 'a'), [...path, 'a']],
        [childPath(path, 0), [...path, 0]],
        [childPath(path, 'a', 3), [...path, 'a', 3]],
        [childPath(path, 'a', 0, 'c'), [...path, 'a', 0, 'c']],
        [childPath(path, 1, 'b', 2), [...path, 1, 'b', 2]],
      ];
      for (const [got, want] of cases) {
        expect(got).toEqual(want);
        expect(got).not.toBe(path);
        // Written as the spread is: no holes, same JSON.
        expect(JSON.stringify(got)).toBe(JSON.stringify(want));
        expect(Object.keys(got)).toEqual(Object.keys(want));
      }
    }
  });

  it('leaves the parent path as it was', () => {
    const path: Path = ['messages', 4, 'parts', 2];
    const child = childPath(path, 'ext');
    child.push('more');
    expect(path).toEqual(['messages', 4, 'parts', 2]);
  });
});
