/**
 * Every installed package runs on the Node we support (root package.json engines, today >=20.19):
 * `npm install` on a Node 20 machine prints no EBADENGINE warning. When a dependency's newer
 * release asks for a newer Node, pin the last one that runs on ours (root `overrides`, with why).
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[]; dev?: boolean; optional?: boolean }>;
};
const ours = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } };

describe('engines', () => {
  it('no locked package asks for a Node newer than the oldest one we support', () => {
    const oldest = semver.minVersion(ours.engines.node)!.version;
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as Record<string, string>).node, { includePrerelease: true }))
      .map(([where, p]) => `${where}@${p.version} (node ${(p.engines as Record<string, string>).node})`);
    expect(refused).toEqual([]);
  });
});
