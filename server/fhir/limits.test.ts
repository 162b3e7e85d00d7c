import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../env';
import { fhirBodyLimit } from './index';

/** The FHIR door's body limit is the HTTP door's: MAX_BODY_BYTES, read when used (not a constant of its own). */
describe('FHIR body limit', () => {
  const saved = process.env.MAX_BODY_BYTES;
  afterEach(() => {
    if (saved === undefined) delete process.env.MAX_BODY_BYTES;
    else process.env.MAX_BODY_BYTES = saved;
    resetEnvCache();
  });

  it('follows MAX_BODY_BYTES', () => {
    delete process.env.MAX_BODY_BYTES;
    resetEnvCache();
    expect(fhirBodyLimit()).toBe(4 * 1024 * 1024);
    process.env.MAX_BODY_BYTES = String(64 * 1024);
    resetEnvCache();
    expect(fhirBodyLimit()).toBe(64 * 1024);
  });
});
