/** `npm run backup` (issue 32): see ../backup/commands.ts. */
import { runWhenMain } from './run.ts';
import { backup } from '../backup/commands.ts';

runWhenMain(import.meta.url, () => backup(process.argv.slice(2)));
