import { describe, expect, it } from 'vitest';
import { isSiteDomain, projectSiteProblems } from './projectSiteProblems';
import { projectSettingNameProblem } from './projectSettingName';

describe('projectSiteProblems', () => {
  it('accepts sites with a name and bare host names', () => {
    expect(projectSiteProblems([{ name: 'Portal', domain: ['portal.example.org', 'localhost:3000'] }])).toEqual([]);
  });

  it('names every problem by its path', () => {
    expect(
      projectSiteProblems([
        { name: ' ', domain: [] },
        { name: 'B', domain: ['https://b.example', 'ok.example', 'OK.example'], googleClientId: 7 },
      ]).map((problem) => problem.path),
    ).toEqual(['site[0].name', 'site[0].domain', 'site[1].domain[0]', 'site[1].domain[2]', 'site[1].googleClientId']);
  });

  it('refuses a name twice and a domain listed by two sites', () => {
    const problems = projectSiteProblems([
      { name: 'A', domain: ['a.example'] },
      { name: 'A', domain: ['a.example'] },
    ]);
    expect(problems.map((problem) => problem.message)).toEqual([
      'Duplicate site name A',
      'Domain a.example is already listed',
    ]);
  });

  it('recognises domains', () => {
    expect(isSiteDomain('app.example.org')).toBe(true);
    expect(isSiteDomain('app.example.org/path')).toBe(false);
    expect(isSiteDomain('-bad.example')).toBe(false);
    expect(isSiteDomain('with space.example')).toBe(false);
  });
});

describe('projectSettingNameProblem', () => {
  it('wants a plain unique identifier', () => {
    expect(projectSettingNameProblem('API_KEY', [])).toBeUndefined();
    expect(projectSettingNameProblem('API KEY', [])).toMatch(/letters, digits/);
    expect(projectSettingNameProblem('', [])).toMatch(/letters, digits/);
    expect(projectSettingNameProblem('API_KEY', ['API_KEY'])).toBe('Duplicate name API_KEY');
  });
});
