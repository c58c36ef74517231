// Preloaded into a server under measurement (`node --import ./bench/lib/memory-probe.mjs …`,
// bench/suites/scale.ts): on SIGUSR2 it writes the process's memory breakdown as JSON to
// MEMORY_PROBE_FILE (after a full GC when the node runs with --expose-gc), and, when
// MEMORY_PROBE_SNAPSHOT names a file, a V8 heap snapshot there (once). Nothing else changes: the
// server itself does not know it is measured.
import fs from 'node:fs';
import v8 from 'node:v8';

const out = process.env.MEMORY_PROBE_FILE;
let sequence = 0;
let snapshotTaken = false;

if (out) {
  process.on('SIGUSR2', () => {
    sequence += 1;
    const gc = globalThis.gc;
    if (typeof gc === 'function') gc();
    const snapshotFile = process.env.MEMORY_PROBE_SNAPSHOT;
    let snapshot = null;
    if (snapshotFile && !snapshotTaken) {
      snapshotTaken = true;
      const t0 = performance.now();
      snapshot = { file: v8.writeHeapSnapshot(snapshotFile), ms: Math.round(performance.now() - t0) };
    }
    const report = {
      sequence,
      gc: typeof gc === 'function',
      memory: process.memoryUsage(),
      heap: v8.getHeapStatistics(),
      spaces: v8.getHeapSpaceStatistics().map((s) => ({ name: s.space_name, used: s.space_used_size, size: s.space_size })),
      snapshot,
    };
    // Written aside and renamed, so the reader never sees half a file.
    fs.writeFileSync(`${out}.tmp`, JSON.stringify(report));
    fs.renameSync(`${out}.tmp`, out);
  });
}
