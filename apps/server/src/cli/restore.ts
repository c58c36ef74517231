/** `npm run restore` (issue 32): see ../backup/commands.ts. */
import { runWhenMain } from './run.ts';
import { restore } from '../backup/commands.ts';

runWhenMain(import.meta.url, () => restore(process.argv.slice(2)));
