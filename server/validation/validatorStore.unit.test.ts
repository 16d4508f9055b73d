import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { readState, writeState } from '../storage/serverState';
import { validateStructure } from './structureValidator';
import { loadStructureValidators, validatorCodeVersion } from './validatorStore';

const stateKey = 'structure-validators';

/** Code in the shape of the generated module whose Patient validator reports one recognisable error. */
const markerCode = `exports.Patient = function marker(data) {
  marker.errors = [{ instancePath: '/marker', schemaPath: '#/marker', keyword: 'marker', params: {}, message: 'from the stored code' }];
  return false;
};`;

const pack = (code: string) => gzipSync(code).toString('base64');
const unpack = (gzipBase64: string) => gunzipSync(Buffer.from(gzipBase64, 'base64')).toString('utf8');

describe('structure validator store', () => {
  const database = embeddedTestDatabase('validator-store');

  it('generates the code once per version and reuses it on the next start', async () => {
    expect(await loadStructureValidators(database())).toBe('generated');
    const stored = await readState<{ version: string; gzipBase64: string }>(database(), stateKey);
    expect(stored?.version).toBe(validatorCodeVersion);
    const code = unpack(stored!.gzipBase64);
    expect(code).toMatch(/^"use strict";/);
    expect(code).toContain('exports.Patient = ');
    expect(await loadStructureValidators(database())).toBe('cached');
    expect(validateStructure({ resourceType: 'Patient', gender: 'robot' } as { resourceType: string })).toEqual([
      expect.objectContaining({ code: 'value', expression: ['Patient.gender'] }),
    ]);
    expect(validateStructure({ resourceType: 'Patient', gender: 'female' } as { resourceType: string })).toEqual([]);
  }, 120_000);

  it('validates with the kept code, not a compile, when the version matches', async () => {
    const stored = await readState<{ version: string; gzipBase64: string }>(database(), stateKey);
    await writeState(database(), stateKey, { version: validatorCodeVersion, gzipBase64: pack(markerCode) });
    try {
      expect(await loadStructureValidators(database())).toBe('cached');
      expect(validateStructure({ resourceType: 'Patient' })).toEqual([
        expect.objectContaining({ details: { text: 'from the stored code' }, expression: ['Patient.marker'] }),
      ]);
    } finally {
      await writeState(database(), stateKey, stored);
    }
  });

  it('regenerates code kept for another definitions, ajv or schema version, and never runs it', async () => {
    await writeState(database(), stateKey, {
      version: 'definitions 0.0.1, ajv 8.0.0, schema r0',
      gzipBase64: pack(markerCode),
    });
    expect(await loadStructureValidators(database())).toBe('generated');
    const stored = await readState<{ version: string; gzipBase64: string }>(database(), stateKey);
    expect(stored?.version).toBe(validatorCodeVersion);
    expect(unpack(stored!.gzipBase64)).not.toContain('marker');
    expect(validateStructure({ resourceType: 'Patient', active: true } as { resourceType: string })).toEqual([]);
  }, 120_000);
});
