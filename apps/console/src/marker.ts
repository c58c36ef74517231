/**
 * A string found only in the console bundle: the bundle-separation test (apps/server/src/console)
 * looks for it in the storefront's built files, where it must never appear.
 */
export const CONSOLE_BUNDLE_MARKER = 'verdant-console-bundle:9c41e7';
