/**
 * One fast-check seed for the whole suite, so `npm test` (and CI) runs the same generated cases
 * every time and a red run is reproducible. PROPERTY_SEED=<n> picks another seed,
 * PROPERTY_SEED=random lets fast-check draw one per property (it prints the seed of a failure);
 * `npm run test:explore` does that with more runs. See docs/decisions/0006-property-seeds.md.
 */
import fc from 'fast-check';

const SUITE_SEED = 20261123;

const raw = process.env['PROPERTY_SEED'];
if (raw !== 'random') {
  const seed = raw === undefined || raw === '' ? SUITE_SEED : Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`PROPERTY_SEED must be an integer or 'random', not ${JSON.stringify(raw)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}
