import { describe, expect, it } from 'vitest';
import type { UserConfiguration } from '@medplum/fhirtypes';
import { addBookmark, DEFAULT_MENUS, menusOf } from './navigationMenus';

describe('navigation menus', () => {
  it('defaults to Charts, Scheduling (soonest first, 20 per page) and Onboarding', () => {
    expect(menusOf(undefined)).toBe(DEFAULT_MENUS);
    expect(DEFAULT_MENUS.map((menu) => menu.title)).toEqual(['Charts', 'Scheduling', 'Onboarding']);
    const scheduling = DEFAULT_MENUS[1].link ?? [];
    expect(scheduling.map((link) => link.target)).toEqual([
      '/appointments/new',
      '/Appointment?status=proposed&_sort=date&_count=20',
      '/Appointment?status=booked&_sort=date&_count=20',
    ]);
  });

  it('uses the configured menus when there are any', () => {
    const config: UserConfiguration = { resourceType: 'UserConfiguration', menu: [{ title: 'Mine', link: [] }] };
    expect(menusOf(config)).toEqual([{ title: 'Mine', link: [] }]);
    expect(menusOf({ resourceType: 'UserConfiguration', menu: [] })).toBe(DEFAULT_MENUS);
  });

  it('adds a bookmark to the chosen menu without changing the original', () => {
    const config: UserConfiguration = {
      resourceType: 'UserConfiguration',
      id: 'c1',
      menu: [{ title: 'Charts', link: [{ name: 'Patients', target: '/Patient' }] }],
    };
    const updated = addBookmark(config, 'Charts', 'Ready tasks', '/Task?status=ready');
    expect(updated.id).toBe('c1');
    expect(updated.menu?.[0].link).toEqual([
      { name: 'Patients', target: '/Patient' },
      { name: 'Ready tasks', target: '/Task?status=ready' },
    ]);
    expect(config.menu?.[0].link).toHaveLength(1);
  });

  it('starts a configuration from the defaults, and creates a missing menu', () => {
    const created = addBookmark(undefined, 'Scheduling', 'Today', '/Appointment?date=today');
    expect(created.resourceType).toBe('UserConfiguration');
    expect(created.menu?.map((menu) => menu.title)).toEqual(['Charts', 'Scheduling', 'Onboarding']);
    expect(created.menu?.[1].link?.at(-1)).toEqual({ name: 'Today', target: '/Appointment?date=today' });
    expect(DEFAULT_MENUS[1].link).toHaveLength(3);
    const extra = addBookmark(created, 'Favourites', 'Labs', '/ServiceRequest');
    expect(extra.menu?.at(-1)).toEqual({ title: 'Favourites', link: [{ name: 'Labs', target: '/ServiceRequest' }] });
  });
});
