import type { DocumentReference, Media, Task } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { timelineTitle, UNTITLED_FILE } from './timelineTitle';

const media = (fields: Partial<Media>): Media => ({
  resourceType: 'Media',
  id: '237d7cb3-0d3c-4b8e-9a55-1c2f3e4d5a6b',
  status: 'completed',
  content: { contentType: 'application/pdf' },
  ...fields,
});

const document = (fields: Partial<DocumentReference>): DocumentReference => ({
  resourceType: 'DocumentReference',
  id: '9f1e2d3c-aaaa-bbbb-cccc-1234567890ab',
  status: 'current',
  content: [{ attachment: { contentType: 'application/pdf' } }],
  ...fields,
});

describe('timelineTitle: a file is called by its name', () => {
  it('names an uploaded Media by its file name', () => {
    expect(timelineTitle(media({ content: { contentType: 'application/pdf', title: 'discharge-letter.pdf' } }))).toBe(
      'discharge-letter.pdf',
    );
  });

  it('falls back to the Media type, never to its reference', () => {
    const title = timelineTitle(media({ type: { text: 'Photo' } }));
    expect(title).toBe('Photo');
    expect(title).not.toMatch(/Media\//);
  });

  it('says "Untitled file" for a Media that names nothing', () => {
    expect(timelineTitle(media({}))).toBe(UNTITLED_FILE);
  });

  it('names a DocumentReference by its first attachment, else its type, else its description', () => {
    expect(
      timelineTitle(
        document({
          type: { text: 'Discharge summary' },
          content: [{ attachment: { title: 'summary-2026-11.pdf' } }, { attachment: { title: 'other.pdf' } }],
        }),
      ),
    ).toBe('summary-2026-11.pdf');
    expect(timelineTitle(document({ type: { coding: [{ code: '18842-5', display: 'Discharge summary' }] } }))).toBe(
      'Discharge summary',
    );
    expect(timelineTitle(document({ description: 'Letter from the cardiologist' }))).toBe(
      'Letter from the cardiologist',
    );
    expect(timelineTitle(document({ content: [] }))).toBe(UNTITLED_FILE);
  });

  it('ignores a blank file name', () => {
    expect(timelineTitle(media({ content: { title: '  ' }, type: { text: 'Scan' } }))).toBe('Scan');
  });
});

describe('timelineTitle: other entries', () => {
  it('names a task by its code and a message by its sender', () => {
    const task: Task = { resourceType: 'Task', status: 'ready', intent: 'order', code: { text: 'Review lab order' } };
    expect(timelineTitle(task)).toBe('Review lab order');
    expect(
      timelineTitle({
        resourceType: 'Communication',
        status: 'completed',
        sender: { reference: 'Practitioner/p1', display: 'Dr. Alice Carter' },
      }),
    ).toBe('From Dr. Alice Carter');
  });
});
