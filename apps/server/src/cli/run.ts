/**
 * The end of every command-line tool: run `main` when this module is the program (not when a test
 * imports it), print an error's message alone and exit 1. `url` is the caller's `import.meta.url`
 * (in a compiled bundle, the bundle's: the entry itself).
 */
import { pathToFileURL } from 'node:url';

export function runWhenMain(url: string, main: () => Promise<unknown>): void {
  if (!process.argv[1] || url !== pathToFileURL(process.argv[1]).href) return;
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
