// `node --import ./test/support/typescript-loader.mjs src/main.ts` runs Trove from its sources.
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
