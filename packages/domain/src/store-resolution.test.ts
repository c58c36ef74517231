import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseStoresFile } from './store.ts';
import { usableMaxGrams, effectiveLicenseType, offeredLicenseTypes } from './store-rules.ts';
import { normalizeHost, resolveStore, resolveStoreFromHost, storePath } from './store-resolution.ts';

const demoPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../apps/server/config/stores.demo.json');
const demoJson = JSON.parse(fs.readFileSync(demoPath, 'utf8'));
const demo = parseStoresFile(demoJson);

describe('resolveStoreFromHost: every rule of spec §1 on the demo stores file', () => {
  it.each([
    // [host, store, rule]
    ['downtown.localhost:3000', 'downtown', 'code'],
    ['eastside.localhost', 'eastside', 'code'],
    ['wellness.verdant.example', 'wellness', 'code'],
    ['harbor.localhost:3000', 'harbor', 'code'],
    ['HARBOR.Localhost', 'harbor', 'code'],
    ['harbour.localhost', 'harbor', 'alias'],
    ['bay.verdant.example', 'harbor', 'alias'],
    ['oldtown.localhost', 'downtown', 'rename'],
    ['oldtown.verdant.example:8080', 'downtown', 'rename'],
    ['shop.localhost', 'eastside', 'shop'],
    ['shop.verdant.example', 'eastside', 'shop'],
    ['www.harborcannabis.example', 'harbor', 'www-domain'],
    ['www.harborcannabis.example:443', 'harbor', 'www-domain'],
    ['www.harborcannabis.example.', 'harbor', 'www-domain'],
    ['www.otherdomain.example', 'downtown', 'default'],
    ['harborcannabis.example', 'downtown', 'default'],
    ['unknown.localhost', 'downtown', 'default'],
    ['localhost:3000', 'downtown', 'default'],
    ['127.0.0.1:3000', 'downtown', 'default'],
    ['[::1]:3000', 'downtown', 'default'],
    ['', 'downtown', 'default'],
  ])('%s → %s (%s)', (host, code, rule) => {
    const r = resolveStoreFromHost(host, demo);
    expect(r.store.storeCode).toBe(code);
    expect(r.resolvedBy).toBe(rule);
  });

  it('treats undefined and null hosts as the default store', () => {
    expect(resolveStoreFromHost(undefined, demo).store.storeCode).toBe('downtown');
    expect(resolveStoreFromHost(null, demo).store.storeCode).toBe('downtown');
  });

  it('lets a real store code named "shop" win over the shop rule', () => {
    const file = parseStoresFile({
      ...demoJson,
      stores: demoJson.stores.map((s: { storeCode: string }) => (s.storeCode === 'wellness' ? { ...s, storeCode: 'shop' } : s)),
    });
    expect(resolveStoreFromHost('shop.localhost', file)).toMatchObject({ resolvedBy: 'code', store: { storeCode: 'shop' } });
  });

  it('does not treat inherited object keys as renames', () => {
    expect(resolveStoreFromHost('constructor.localhost', demo).resolvedBy).toBe('default');
    expect(resolveStoreFromHost('__proto__.localhost', demo).resolvedBy).toBe('default');
  });
});

describe('resolveStore: store-code path prefix', () => {
  it('uses the host when the path has no store code', () => {
    expect(resolveStore({ host: 'eastside.localhost', pathname: '/menu/flower' }, demo)).toMatchObject({
      store: { storeCode: 'eastside' },
      pathPrefix: '',
      pathname: '/menu/flower',
    });
  });
  it('lets a store-code prefix override the host', () => {
    expect(resolveStore({ host: 'localhost', pathname: '/wellness/menu' }, demo)).toMatchObject({
      store: { storeCode: 'wellness' },
      resolvedBy: 'path-prefix',
      pathPrefix: '/wellness',
      pathname: '/menu',
    });
    expect(resolveStore({ host: 'downtown.localhost', pathname: '/harbor' }, demo)).toMatchObject({
      store: { storeCode: 'harbor' },
      pathname: '/',
    });
  });
  it('does not take aliases or unknown words as a prefix', () => {
    expect(resolveStore({ host: 'localhost', pathname: '/bay/menu' }, demo)).toMatchObject({
      store: { storeCode: 'downtown' },
      pathPrefix: '',
      pathname: '/bay/menu',
    });
    expect(resolveStore({ host: 'localhost', pathname: '/menu' }, demo).pathPrefix).toBe('');
  });
});

describe('storePath', () => {
  it('prefixes only stores that append their code', () => {
    expect(storePath({ storeCode: 'eastside', appendStoreCode: false }, '/menu')).toBe('/menu');
    expect(storePath({ storeCode: 'eastside', appendStoreCode: true }, '/menu')).toBe('/eastside/menu');
    expect(storePath({ storeCode: 'eastside', appendStoreCode: true }, '/')).toBe('/eastside');
    expect(storePath({ storeCode: 'eastside', appendStoreCode: true }, 'checkout')).toBe('/eastside/checkout');
  });
});

describe('normalizeHost', () => {
  it.each([
    ['Downtown.LocalHost:3000', 'downtown.localhost'],
    ['example.com.', 'example.com'],
    ['10.0.0.1', ''],
    ['[::1]', ''],
  ])('%s → %s', (input, out) => expect(normalizeHost(input)).toBe(out));
});

describe('demo stores file', () => {
  it('has exactly the four demo stores with their ids, licences and limits', () => {
    const summary = demo.stores.map((s) => ({
      code: s.storeCode,
      id: s.storeId,
      offered: offeredLicenseTypes(s),
      rec: usableMaxGrams(s, 'recreational'),
      med: usableMaxGrams(s, 'medical'),
      aliases: s.aliases,
    }));
    expect(summary).toEqual([
      { code: 'downtown', id: 1, offered: ['recreational', 'medical'], rec: 28.5, med: 226.8, aliases: [] },
      { code: 'eastside', id: 2, offered: ['recreational'], rec: 28.5, med: null, aliases: [] },
      { code: 'wellness', id: 3, offered: ['medical'], rec: null, med: 226.8, aliases: [] },
      { code: 'harbor', id: 4, offered: ['recreational', 'medical'], rec: 28.5, med: 226.8, aliases: ['harbour', 'bay'] },
    ]);
    expect(demo.defaultStoreCode).toBe('downtown');
    expect(demo.hostRules).toEqual({
      renames: { oldtown: 'downtown' },
      shopLabelStore: 'eastside',
      wwwDomains: { 'harborcannabis.example': 'harbor' },
    });
    for (const s of demo.stores) {
      expect(s.i18n).toEqual({ currencyCode: 'USD', defaultLocale: 'en-US' });
      expect(s.dispensarySettings.place_info.license_number).toMatch(/LIC$/);
    }
  });

  it('gives a guest the only licence type a single-licence store offers', () => {
    const [downtown, eastside, wellness] = demo.stores;
    expect(effectiveLicenseType(eastside, 'medical')).toBe('recreational');
    expect(effectiveLicenseType(wellness, undefined)).toBe('medical');
    expect(effectiveLicenseType(downtown, 'medical')).toBe('medical');
    expect(effectiveLicenseType(downtown, 'bogus')).toBe('recreational');
  });
});

describe('parseStoresFile: a bad file names the field', () => {
  const clone = () => structuredClone(demoJson);
  it('names a missing field', () => {
    const bad = clone();
    delete bad.stores[1].dispensarySettings.place_info.license_number;
    expect(() => parseStoresFile(bad)).toThrow(/stores\.1\.dispensarySettings\.place_info\.license_number/);
  });
  it('names a wrong type', () => {
    const bad = clone();
    bad.stores[0].storeId = 'one';
    expect(() => parseStoresFile(bad)).toThrow(/stores\.0\.storeId/);
  });
  it('refuses duplicate codes and aliases', () => {
    const bad = clone();
    bad.stores[1].aliases = ['bay'];
    expect(() => parseStoresFile(bad)).toThrow(/"bay" is used twice/);
  });
  it('refuses rules that point to unknown stores', () => {
    const bad = clone();
    bad.hostRules.renames.oldtown = 'nowhere';
    expect(() => parseStoresFile(bad)).toThrow(/hostRules\.renames\.oldtown: unknown store code "nowhere"/);
  });
  it('refuses a store without any licence type or without a limit for an offered one', () => {
    const none = clone();
    none.stores[0].dispensarySettings.license_recreational = false;
    none.stores[0].dispensarySettings.license_medical = false;
    expect(() => parseStoresFile(none)).toThrow(/at least one licence type/);
    const noLimit = clone();
    delete noLimit.stores[0].dispensarySettings.compliance_settings.limits.medical;
    expect(() => parseStoresFile(noLimit)).toThrow(/compliance_settings\.limits/);
  });
});
