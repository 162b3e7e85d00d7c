import { describe, expect, it } from 'vitest';
import { fragmentOnly, looksLikeCode } from './suggest-words';

describe('autocomplete word rules', () => {
  it('refuses a fragment inside a word, keeps whole words, prefixes and synonym hits', () => {
    expect(fragmentOnly('Latent yaws', 'tent')).toBe(true);
    expect(fragmentOnly('Latent yaws', 'latent')).toBe(false);
    expect(fragmentOnly('Heart failure, unspecified', 'heart fail')).toBe(false);
    expect(fragmentOnly('Non-ST elevation (NSTEMI) myocardial infarction', 'heart attack')).toBe(false);
    expect(fragmentOnly('Dilation of Coronary Artery, One Artery with Drug-eluting Intraluminal Device', 'coronary stent')).toBe(false);
    expect(fragmentOnly('Sepsis, unspecified organism', 'psis')).toBe(true);
  });
  it('tells codes from words', () => {
    expect(looksLikeCode('I21.4')).toBe(true);
    expect(looksLikeCode('02703DZ')).toBe(true);
    expect(looksLikeCode('heart failure')).toBe(false);
    expect(looksLikeCode('HEA.RTFAILURE')).toBe(false);
  });
});
