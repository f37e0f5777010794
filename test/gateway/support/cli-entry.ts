// Runs the CLI from source (the bin runs the built dist/), for tests that need a real process.
import { main } from '../../../src/cli/main.js';

await main(process.argv.slice(2), '0.0.0-test');
