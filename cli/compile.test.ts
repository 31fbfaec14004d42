import { describe, expect, it } from 'vitest';
import { formatProblem } from '../src/model/index.js';
import { sharedOutputDirs } from './compile.js';

/** What compile() refuses across definition files. */

describe('output folders', () => {
  it('refuses two definitions whose folders differ only in letter case, naming both', () => {
    const problems = sharedOutputDirs([
      { file: 'definitions/views/17-Vehicle.json', rel: 'views/17-Vehicle.json' },
      { file: 'definitions/views/17-vehicle.json', rel: 'views/17-vehicle.json' },
      { file: 'definitions/views/18-other.json', rel: 'views/18-other.json' },
    ]);
    expect(problems.map(formatProblem).map((l) => l.split('\n')[0])).toEqual([
      'definitions/views/17-Vehicle.json#: its pages would go to generated/views/17-Vehicle/, as those of definitions/views/17-vehicle.json (generated/views/17-vehicle/): folder names differing only in letter case are one folder on macOS and Windows',
      'definitions/views/17-vehicle.json#: its pages would go to generated/views/17-vehicle/, as those of definitions/views/17-Vehicle.json (generated/views/17-Vehicle/): folder names differing only in letter case are one folder on macOS and Windows',
    ]);
    expect(problems.every((p) => p.code === 'E_DUPLICATE')).toBe(true);
  });

  it('still refuses names that map to the very same folder', () => {
    const problems = sharedOutputDirs([
      { file: 'definitions/views/12 stock-in.json', rel: 'views/12 stock-in.json' },
      { file: 'definitions/views/12-stock-in.json', rel: 'views/12-stock-in.json' },
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      'its pages would go to generated/views/12-stock-in/, as those of definitions/views/12-stock-in.json',
      'its pages would go to generated/views/12-stock-in/, as those of definitions/views/12 stock-in.json',
    ]);
  });

  it('lets views and screens with one name be', () => {
    expect(
      sharedOutputDirs([
        { file: 'definitions/views/1-a.json', rel: 'views/1-a.json' },
        { file: 'definitions/screens/1-A.json', rel: 'screens/1-A.json' },
      ]),
    ).toEqual([]);
  });
});
