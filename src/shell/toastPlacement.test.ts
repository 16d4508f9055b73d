import { describe, expect, it } from 'vitest';
import { KEEP_CLEAR_GAP, toastBottom, toastColumn, type ScreenBox } from './toastPlacement';

const base = 64;
const toastWidth = 440;
const toastHeight = 200;
const place = (width: number, height: number, ...keepClear: ScreenBox[]) =>
  toastBottom({ viewport: { width, height }, base, toastWidth, toastHeight, keepClear });
const box = (top: number, bottom: number, left: number, right: number): ScreenBox => ({ top, bottom, left, right });

describe('toastColumn', () => {
  it('is 440 wide, 20 px from the right edge; on a phone it spans the window', () => {
    expect(toastColumn({ width: 1280 }, toastWidth)).toEqual({ left: 820, right: 1260 });
    expect(toastColumn({ width: 400 }, toastWidth)).toEqual({ left: 16, right: 384 });
  });
});

describe('toastBottom', () => {
  it('stays at the usual clearance with nothing to keep clear', () => {
    expect(place(1280, 800)).toBe(base);
  });

  it("stands just above a chat composer at the window's bottom, under the toasts' column", () => {
    // The composer (message box and Send) fills the last 70 px of the window, right across.
    expect(place(1280, 800, box(730, 800, 616, 1264))).toBe(800 - 730 + KEEP_CLEAR_GAP);
    // Tablet (under 900 px) and phone widths alike.
    expect(place(860, 1000, box(900, 970, 16, 844))).toBe(1000 - 900 + KEEP_CLEAR_GAP);
    expect(place(390, 700, box(600, 670, 8, 382))).toBe(700 - 600 + KEEP_CLEAR_GAP);
  });

  it('a composer partly scrolled below the window still lifts the toasts above its top', () => {
    expect(place(1280, 800, box(720, 790 + 30, 616, 1264))).toBe(800 - 720 + KEEP_CLEAR_GAP);
    // Only its top edge showing, inside the bottom clearance: the toasts cover none of it.
    expect(place(1280, 800, box(770, 840, 616, 1264))).toBe(base);
  });

  it('leaves the toasts where they are when the composer is off screen, beside the column, or low enough', () => {
    expect(place(1280, 800, box(900, 970, 616, 1264))).toBe(base);
    expect(place(1280, 800, box(-200, -130, 616, 1264))).toBe(base);
    expect(place(1600, 800, box(730, 800, 266, 800))).toBe(base);
    // Wholly inside the bottom clearance: nothing there to cover.
    expect(place(1280, 800, box(740, 800, 616, 1264))).toBe(base);
  });

  it('with a toast’s room below the composer the toasts stay down', () => {
    expect(place(1280, 1400, box(600, 670, 616, 1264))).toBe(base);
  });

  it('does not push the toasts up under the header for a composer near the top', () => {
    expect(place(1280, 800, box(100, 170, 616, 1264))).toBe(base);
  });
});
