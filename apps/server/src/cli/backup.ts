/** `npm run backup` (issue 32): see ../backup/commands.ts. */
import { pathToFileURL } from 'node:url';
import { backup } from '../backup/commands.ts';

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  backup(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
