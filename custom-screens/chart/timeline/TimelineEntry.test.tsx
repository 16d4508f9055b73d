import { render, screen } from '@testing-library/react';
import type { Communication, Patient, Task } from '@medplum/fhirtypes';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { TimelineEntry } from './TimelineEntry';

const author = { reference: 'Practitioner/p1', display: 'Dr. Alice Carter' };

function renderEntry(resource: Task | Communication | Patient) {
  render(
    <MemoryRouter>
      <TimelineEntry item={{ key: 'k', resource }} patientId="pat1" />
    </MemoryRouter>,
  );
  return screen.getByRole('article');
}

describe('TimelineEntry: who is named beside the date', () => {
  it('names the last writer of an entry dated by its own field as the one who last changed it', () => {
    const entry = renderEntry({
      resourceType: 'Task',
      id: 't1',
      status: 'on-hold',
      intent: 'order',
      code: { text: 'Call about lab results' },
      authoredOn: '2026-11-25T09:00:00.000Z',
      meta: { lastUpdated: '2026-11-28T07:05:00.000Z', author },
    });
    expect(entry).toHaveTextContent('last changed by Dr. Alice Carter');
  });

  it('names the writer plainly when the entry is dated by that very write', () => {
    const entry = renderEntry({
      resourceType: 'Task',
      id: 't2',
      status: 'ready',
      intent: 'order',
      code: { text: 'Review readings' },
      meta: { lastUpdated: '2026-11-28T07:05:00.000Z', author },
    });
    expect(entry).toHaveTextContent('· Dr. Alice Carter');
    expect(entry).not.toHaveTextContent('last changed by');
  });

  it('never names the last writer of a message: the title names its sender', () => {
    const entry = renderEntry({
      resourceType: 'Communication',
      id: 'c1',
      status: 'completed',
      sent: '2026-11-27T16:00:00.000Z',
      sender: { reference: 'Patient/pat1', display: 'Wendy Littel' },
      payload: [{ contentString: 'My blood pressure was 150/95 this morning' }],
      meta: { lastUpdated: '2026-11-28T07:05:00.000Z', author },
    });
    expect(entry).not.toHaveTextContent('Alice Carter');
  });
});
