import { render, screen, within } from '@testing-library/react';
import type { Communication, Reference } from '@medplum/fhirtypes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageList } from './MessageList';

const patient = { reference: 'Patient/pat-1', display: 'Wendy Littel' };
const alice = { reference: 'Practitioner/alice', display: 'Dr. Alice Carter' };
const ben = { reference: 'Practitioner/ben', display: 'Mr. Ben Okafor' };

function message(id: string, sender: Reference, text: string, minute: number): Communication {
  return {
    resourceType: 'Communication',
    id,
    status: 'completed',
    sender: sender as Communication['sender'],
    subject: { reference: patient.reference },
    sent: `2026-11-21T10:0${minute}:00Z`,
    payload: [{ contentString: text }],
  };
}

const conversation = [
  message('1', alice, 'Your blood test is ordered', 0),
  message('2', patient, 'Thank you, I will be there', 1),
  message('3', ben, 'Your appointment is at 9', 2),
];

function bubbles(profile: Reference) {
  render(<MessageList messages={conversation} profile={profile} patient={{ reference: patient.reference }} />);
  return Object.fromEntries(
    screen.getAllByTestId('chat-message').map((bubble) => [bubble.getAttribute('data-id'), bubble]),
  );
}

describe('MessageList: the patient on one side, the clinic on the other', () => {
  it("shows the front desk a doctor's message on the clinic's (right) side, with her name", () => {
    const shown = bubbles(ben);
    expect(shown['1']).toHaveAttribute('data-own', 'true');
    expect(within(shown['1']).getByTestId('chat-sender')).toHaveTextContent('Dr. Alice Carter');
    expect(shown['1']).toHaveTextContent('Delivered');
    // Their own message needs no name; the patient's is on the left, named.
    expect(shown['3']).toHaveAttribute('data-own', 'true');
    expect(within(shown['3']).queryByTestId('chat-sender')).not.toBeInTheDocument();
    expect(shown['2']).toHaveAttribute('data-own', 'false');
    expect(within(shown['2']).getByTestId('chat-sender')).toHaveTextContent('Wendy Littel');
    expect(shown['2']).not.toHaveTextContent('Delivered');
  });

  it('shows the patient her own messages on the right and the whole clinic on the left', () => {
    const shown = bubbles(patient);
    expect(shown['2']).toHaveAttribute('data-own', 'true');
    expect(within(shown['2']).queryByTestId('chat-sender')).not.toBeInTheDocument();
    expect(shown['1']).toHaveAttribute('data-own', 'false');
    expect(shown['3']).toHaveAttribute('data-own', 'false');
    expect(within(shown['3']).getByTestId('chat-sender')).toHaveTextContent('Mr. Ben Okafor');
  });
});

describe('MessageList: the writer sees whether a message was read', () => {
  it("adds the other side's read time to a message it has marked read, and nothing to one not yet read", () => {
    const read = { ...message('4', alice, 'Please book a fasting test', 3), received: '2026-11-21T11:30:00Z' };
    const unread = { ...message('5', alice, 'And bring your readings', 4), status: 'in-progress' as const };
    render(<MessageList messages={[read, unread]} profile={alice} patient={{ reference: patient.reference }} />);
    const [readStatus, unreadStatus] = screen.getAllByTestId('chat-delivery');
    expect(readStatus).toHaveTextContent(/^Delivered .+ · Read .+$/);
    expect(unreadStatus).toHaveTextContent(/^Delivered /);
    expect(unreadStatus).not.toHaveTextContent('Read');
  });
});

describe('MessageList: a long URL stays inside its bubble', () => {
  it('lets the text break anywhere inside a bubble that may shrink', () => {
    const url = `https://example.org/${'a'.repeat(300)}`;
    render(
      <MessageList
        messages={[message('9', alice, url, 0)]}
        profile={alice}
        patient={{ reference: patient.reference }}
      />,
    );
    // overflow-wrap is inherited in CSS; happy-dom computes no inheritance, so the bubble is read.
    const bubble = screen.getByText(url).closest('.MuiPaper-root');
    expect(bubble).not.toBeNull();
    expect(getComputedStyle(bubble!).overflowWrap).toBe('anywhere');
    expect(getComputedStyle(bubble!).maxWidth).toBe('75%');
  });
});

describe('MessageList: kept scrolled to the newest', () => {
  const original = Element.prototype.scrollIntoView;
  afterEach(() => {
    vi.restoreAllMocks();
    Element.prototype.scrollIntoView = original;
  });

  it('scrolls itself, not the page: scrollIntoView would also move where the Tab key starts (Chromium)', () => {
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(480);
    render(<MessageList messages={conversation} profile={ben} patient={{ reference: patient.reference }} />);
    expect(screen.getByRole('log', { name: 'Messages' }).scrollTop).toBe(480);
    expect(scrollIntoView).not.toHaveBeenCalled();
  });
});
