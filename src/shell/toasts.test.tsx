import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEEP_CLEAR_GAP } from './toastPlacement';
import { TOAST_BOTTOM_CLEARANCE, TOAST_BOTTOM_VARIABLE, ToastProvider, useToast, useToastKeepClear } from './toasts';

const bottom = () => document.documentElement.style.getPropertyValue(TOAST_BOTTOM_VARIABLE);

/** A bar at the window's bottom that the toasts must not cover, and a button that shows a toast. */
function Composer() {
  const ref = useRef<HTMLDivElement>(null);
  useToastKeepClear(ref);
  const toast = useToast();
  return (
    <div ref={ref}>
      <button type="button" onClick={() => toast.error('Error\nInternal server error', { persist: true })}>
        Send
      </button>
    </div>
  );
}

let composerTop = 720;

function mockLayout() {
  vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(1280);
  vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() =>
    DOMRect.fromRect({ x: 616, y: composerTop, width: 648, height: 70 }),
  );
}

afterEach(() => {
  composerTop = 720;
  vi.restoreAllMocks();
});

describe('ToastProvider', () => {
  it('stands the toasts at the usual clearance, read from a variable the provider moves', () => {
    render(<ToastProvider>page</ToastProvider>);
    const rules = [...document.querySelectorAll('style')].map((style) => style.textContent).join('\n');
    expect(rules).toContain(`bottom:var(${TOAST_BOTTOM_VARIABLE}, ${TOAST_BOTTOM_CLEARANCE}px)!important`);
    expect(bottom()).toBe('');
  });

  it('lifts the toasts above a kept-clear element and follows it when the page scrolls', async () => {
    mockLayout();
    render(
      <ToastProvider>
        <Composer />
      </ToastProvider>,
    );
    expect(bottom()).toBe(`${800 - 720 + KEEP_CLEAR_GAP}px`);
    // Scrolled so that the composer sits lower: measured again on the next frame.
    composerTop = 700;
    act(() => {
      window.dispatchEvent(new Event('scroll'));
    });
    await vi.waitFor(() => expect(bottom()).toBe(`${800 - 700 + KEEP_CLEAR_GAP}px`));
    // Scrolled away: the toasts go back down.
    composerTop = 1200;
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    await vi.waitFor(() => expect(bottom()).toBe(`${TOAST_BOTTOM_CLEARANCE}px`));
  });

  it('measures again as a toast shows', () => {
    mockLayout();
    render(
      <ToastProvider>
        <Composer />
      </ToastProvider>,
    );
    composerTop = 690;
    act(() => {
      screen.getByRole('button', { name: 'Send' }).click();
    });
    expect(bottom()).toBe(`${800 - 690 + KEEP_CLEAR_GAP}px`);
  });
});
