import { describe, expect, it } from 'vitest';
import { defaultPreference, indexDefaults, tabularCodes } from './index-defaults';

const T = (title: string, billable = true) => ({ title, billable });

describe('ICD-10-CM index defaults carried to the current tabular', () => {
  const current = new Map([
    ['I21', T('Acute myocardial infarction', false)],
    ['I213', T('ST elevation (STEMI) myocardial infarction of unspecified site')],
    ['I214', T('Non-ST elevation (NSTEMI) myocardial infarction')],
    ['I219', T('Acute myocardial infarction, unspecified')],
    ['M545', T('Low back pain', false)],
    ['M5450', T('Low back pain, unspecified')],
    ['M5451', T('Vertebrogenic low back pain')],
    ['M5459', T('Other low back pain')],
    ['S525', T('Fracture of lower end of radius', false)],
    ['S5250', T('Unspecified fracture of the lower end of radius', false)],
    ['S52501', T('Unspecified fracture of the lower end of right radius', false)],
    ['S52501A', T('Unspecified fracture of the lower end of right radius, initial encounter for closed fracture')],
    ['S52501D', T('Unspecified fracture of the lower end of right radius, subsequent encounter for closed fracture with routine healing')],
    ['S52509', T('Unspecified fracture of the lower end of unspecified radius', false)],
    ['S52509A', T('Unspecified fracture of the lower end of unspecified radius, initial encounter for closed fracture')],
    ['S52509D', T('Unspecified fracture of the lower end of unspecified radius, subsequent encounter for closed fracture with routine healing')],
    ['J45', T('Asthma', false)],
    ['J459', T('Other and unspecified asthma', false)],
    ['J45909', T('Unspecified asthma, uncomplicated')],
  ]);
  const in2017 = new Set(['I21', 'I213', 'I214', 'M545', 'S525', 'S5250', 'S52501', 'S52501A', 'S52509', 'S52509A', 'J45', 'J459', 'J45909']);
  const d = indexDefaults(current, in2017);

  it('an unspecified 2017 default gives way to the unspecified code its category gained later', () => {
    expect(d.defaultFor('I213', 'Attack, attacks, heart')).toBe('I219');
    expect(d.defaultFor('I213', 'Infarct, infarction, myocardium, myocardial (acute)')).toBe('I219');
    // the entry names what the old code specifies: it stays
    expect(d.defaultFor('I213', 'Infarct, myocardium, ST elevation (STEMI)')).toBeNull();
    // a specified sibling is not an unspecified default
    expect(d.defaultFor('I214', 'Infarct, infarction, subendocardial (acute)')).toBeNull();
  });

  it('a code expanded since 2017: its default billable descendant (unspecified, no side, initial encounter)', () => {
    expect(d.defaultFor('M545', 'Pain, back, low')).toBe('M5450');
    const expanded = indexDefaults(current, new Set(['S525', 'J45']));
    expect(expanded.defaultFor('S525', 'Fracture, radius, lower end')).toBe('S52509A');
    expect(expanded.defaultFor('J45', 'Asthma')).toBe('J45909');
  });

  it('headers that already had children in 2017 (dash codes) and 7th-character extensions are left to the engine', () => {
    expect(d.defaultFor('S525', 'Fracture, radius, lower end')).toBeNull();
    expect(d.defaultFor('S52501', 'Fracture, radius, lower end, right')).toBeNull();
    expect(d.defaultFor('J45', 'Asthma')).toBeNull();
  });

  it('a billable code with no newer unspecified code, or an unknown code, is left alone', () => {
    expect(d.defaultFor('J45909', 'Asthma')).toBeNull();
    expect(d.defaultFor('Z99999', 'Nothing')).toBeNull();
  });

  it('prefers unspecified, initial encounter codes; reads the codes of a tabular XML', () => {
    expect(defaultPreference('S52509A', 'Unspecified fracture of unspecified radius, initial encounter', 2)).toBeGreaterThan(
      defaultPreference('S52509D', 'Unspecified fracture of unspecified radius, subsequent encounter', 2),
    );
    expect(defaultPreference('M5450', 'Low back pain, unspecified', 1)).toBeGreaterThan(defaultPreference('M5459', 'Other low back pain', 1));
    expect([...tabularCodes('<diag><name>I21</name><diag><name>I21.3</name></diag></diag><name>Chapter</name>')]).toEqual(['I21', 'I213']);
  });
});
