import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEEP_CLEAR_GAP } from '../../src/shell/toastPlacement';
import { TOAST_BOTTOM_VARIABLE, ToastProvider } from '../../src/shell/toasts';
import { ChatInput, DRAFT_KEPT, remainingAfterSend } from './ChatInput';

afterEach(() => window.sessionStorage.clear());

const box = () => screen.getByRole('textbox', { name: 'Message' });

describe('ChatInput', () => {
  it('keeps unsent text when the conversation is left and opened again', () => {
    const first = render(<ChatInput onSend={vi.fn()} draftKey="Practitioner/p1|Patient/a" />);
    fireEvent.change(box(), { target: { value: 'Your results are back, please call' } });
    first.unmount();
    render(<ChatInput onSend={vi.fn()} draftKey="Practitioner/p1|Patient/a" />);
    expect(box()).toHaveValue('Your results are back, please call');
  });

  it("does not show one conversation's draft in another", () => {
    const first = render(<ChatInput onSend={vi.fn()} draftKey="Practitioner/p1|Patient/a" />);
    fireEvent.change(box(), { target: { value: 'For patient A' } });
    first.unmount();
    render(<ChatInput onSend={vi.fn()} draftKey="Practitioner/p1|Patient/b" />);
    expect(box()).toHaveValue('');
  });

  it('follows the conversation when the same box is handed another one', () => {
    const view = render(<ChatInput onSend={vi.fn()} draftKey="Practitioner/p1|Patient/a" />);
    fireEvent.change(box(), { target: { value: 'For patient A' } });
    view.rerender(<ChatInput onSend={vi.fn()} draftKey="Practitioner/p1|Patient/b" />);
    expect(box()).toHaveValue('');
    fireEvent.change(box(), { target: { value: 'For patient B' } });
    view.rerender(<ChatInput onSend={vi.fn()} draftKey="Practitioner/p1|Patient/a" />);
    expect(box()).toHaveValue('For patient A');
    view.rerender(<ChatInput onSend={vi.fn()} draftKey="Practitioner/p1|Patient/b" />);
    expect(box()).toHaveValue('For patient B');
  });

  it('forgets the draft once sent, keeps it when the send failed', async () => {
    const onSend = vi.fn().mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    const view = render(<ChatInput onSend={onSend} draftKey="k" />);
    fireEvent.change(box(), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
    expect(box()).toHaveValue('Hello');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(box()).toHaveValue(''));
    view.unmount();
    render(<ChatInput onSend={onSend} draftKey="k" />);
    expect(box()).toHaveValue('');
  });

  it('hands the focus back to the box after Send is clicked, to write on', async () => {
    const user = userEvent.setup();
    render(<ChatInput onSend={vi.fn().mockResolvedValue(true)} draftKey="k" />);
    await user.type(box(), 'See you Tuesday');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(box()).toHaveValue(''));
    expect(box()).toHaveFocus();
  });

  it('takes no focus when it is shown: the page is read first', () => {
    render(<ChatInput onSend={vi.fn()} draftKey="k" />);
    expect(box()).not.toHaveFocus();
  });

  it('keeps what was typed while a message was being sent', async () => {
    let finish: (sent: boolean) => void = () => undefined;
    const onSend = vi.fn(() => new Promise<boolean>((resolve) => (finish = resolve)));
    render(<ChatInput onSend={onSend} draftKey="k" />);
    fireEvent.change(box(), { target: { value: 'Your results are back.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledWith('Your results are back.'));
    fireEvent.change(box(), { target: { value: 'Your results are back. Please call the clinic' } });
    finish(true);
    await vi.waitFor(() => expect(box()).toHaveValue('Please call the clinic'));
  });

  it('says beside a box closed for a reason why, and keeps the draft it holds untouched', async () => {
    window.sessionStorage.setItem('hearth.chatDraft.k', 'Half-written reply');
    const onSend = vi.fn();
    render(<ChatInput onSend={onSend} draftKey="k" disabledReason="Messages cannot be sent here." />);
    const closed = screen.getByRole('textbox', { name: 'Replies are disabled' });
    expect(closed).toBeDisabled();
    expect(closed).toHaveValue('Half-written reply');
    expect(closed).toHaveAccessibleDescription(`Messages cannot be sent here. ${DRAFT_KEPT}`);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.submit(closed.closest('form') as HTMLFormElement);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(onSend).not.toHaveBeenCalled();
    expect(window.sessionStorage.getItem('hearth.chatDraft.k')).toBe('Half-written reply');
  });

  it('leaves nothing, the rest, or everything once a message went out', () => {
    expect(remainingAfterSend('Hello', 'Hello')).toBe('');
    expect(remainingAfterSend('Hello\nAnd more', 'Hello')).toBe('And more');
    // The sent text itself was edited meanwhile: all of it stays.
    expect(remainingAfterSend('Hallo there', 'Hello')).toBe('Hallo there');
  });
});

describe('ChatInput under the toasts', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('keeps the toasts off the message box and Send: the stack stands just above the composer', () => {
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(1280);
    vi.spyOn(window, 'innerHeight', 'get').mockReturnValue(800);
    // The composer spans the bottom of the window, under the toasts' column (bottom-right).
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
      DOMRect.fromRect({ x: 616, y: 720, width: 648, height: 70 }),
    );
    const view = render(
      <ToastProvider>
        <ChatInput onSend={vi.fn()} draftKey="k" />
      </ToastProvider>,
    );
    const bottom = () => document.documentElement.style.getPropertyValue(TOAST_BOTTOM_VARIABLE);
    expect(bottom()).toBe(`${800 - 720 + KEEP_CLEAR_GAP}px`);
    // Gone with the composer: the toasts go back to their usual place.
    view.unmount();
    expect(bottom()).toBe('');
  });
});
