#!/usr/bin/env node
// Runs the built CLI. `npm install` builds dist/ (the `prepare` script), so no manual step.
import { existsSync, readFileSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('interlingua: dist/ is missing; run `npm run build` (npm install does it for you)\n');
  process.exit(1);
}
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const cli = await import(entry.href);
await cli.main(process.argv.slice(2), pkg.version);
