import type { UserConfiguration, UserConfigurationMenu } from '@medplum/fhirtypes';

/** Appointment lists show this many per page (app-spec §9). */
export const APPOINTMENT_PAGE_SIZE = 20;

/**
 * The sidebar of a user without menus in their UserConfiguration (app-spec §2.5). The appointment
 * lists run soonest first: the front desk works down them in time order, not by last edit.
 */
export const DEFAULT_MENUS: UserConfigurationMenu[] = [
  { title: 'Charts', link: [{ name: 'Patients', target: '/Patient' }] },
  {
    title: 'Scheduling',
    link: [
      { name: 'New Appointment', target: '/appointments/new' },
      {
        name: 'Appointment Requests',
        target: `/Appointment?status=proposed&_sort=date&_count=${APPOINTMENT_PAGE_SIZE}`,
      },
      {
        name: 'Upcoming Appointments',
        target: `/Appointment?status=booked&_sort=date&_count=${APPOINTMENT_PAGE_SIZE}`,
      },
    ],
  },
  { title: 'Onboarding', link: [{ name: 'New Patient', target: '/onboarding' }] },
];

/** The sidebar menus: the user's configured ones, else the defaults. */
export function menusOf(config: UserConfiguration | undefined): UserConfigurationMenu[] {
  return config?.menu?.length ? config.menu : DEFAULT_MENUS;
}

/**
 * The configuration with a bookmark added to the named menu (created when missing). A user without
 * menus starts from the defaults, so the bookmark joins what they already see.
 */
export function addBookmark(
  config: UserConfiguration | undefined,
  menuTitle: string,
  name: string,
  target: string,
): UserConfiguration {
  const menus = menusOf(config).map((menu) => ({ ...menu, link: [...(menu.link ?? [])] }));
  const menu = menus.find((candidate) => candidate.title === menuTitle);
  if (menu) menu.link.push({ name, target });
  else menus.push({ title: menuTitle, link: [{ name, target }] });
  return { ...(config ?? { resourceType: 'UserConfiguration', name: 'User configuration' }), menu: menus };
}
