/**
 * Start-up check: is the port free? Asked before the server takes its data directory, migrates or
 * seeds anything, so a second `npm start` on a taken port says so in one line and changes nothing.
 * (A port taken between this check and listen() still fails listen() with EADDRINUSE.)
 */
import net from 'node:net';

export class PortInUseError extends Error {}

export function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new PortInUseError(`Port ${port} on ${host} is already in use (another server?): stop it or set PORT to a free port.`));
      } else reject(err);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
