import { createContext } from 'react';

/**
 * The Content-Security-Policy nonce of the answer being rendered (entry.server.tsx provides it
 * from the server's load context); undefined in the browser, which needs none after hydration.
 */
export const CspNonce = createContext<string | undefined>(undefined);
