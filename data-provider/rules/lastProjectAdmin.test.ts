import { describe, expect, it } from 'vitest';
import { removesLastAdmin, type AdminSeat } from './lastProjectAdmin';

const alice: AdminSeat = { id: 'a', admin: true, active: true, user: 'User/1' };
const ben: AdminSeat = { id: 'b', admin: false, active: true, user: 'User/2' };
const adminBot: AdminSeat = { id: 'c', admin: true, active: true, user: 'ClientApplication/3' };

describe('removesLastAdmin', () => {
  it('refuses demoting, deactivating or removing the only person who is admin', () => {
    const seats = [alice, ben, adminBot];
    expect(removesLastAdmin(seats, 'a', { ...alice, admin: false })).toBe(true);
    expect(removesLastAdmin(seats, 'a', { ...alice, active: false })).toBe(true);
    expect(removesLastAdmin(seats, 'a', 'removed')).toBe(true);
  });

  it('allows it when another active person is admin, and any change to a non-admin', () => {
    const carol: AdminSeat = { id: 'd', admin: true, active: true, user: 'User/4' };
    expect(removesLastAdmin([alice, carol], 'a', 'removed')).toBe(false);
    expect(removesLastAdmin([alice, ben], 'b', 'removed')).toBe(false);
    expect(removesLastAdmin([alice, ben], 'a', { ...alice, accessPolicy: 'x' } as AdminSeat)).toBe(false);
  });

  it('does not count an inactive admin or an admin client as the remaining admin', () => {
    const inactive: AdminSeat = { id: 'e', admin: true, active: false, user: 'User/5' };
    expect(removesLastAdmin([alice, inactive, adminBot], 'a', 'removed')).toBe(true);
  });
});
