import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { TypeSchema } from '../resources/typeSchema';
import { ElementValue } from './ValueDisplay';

// Meta has no formatter of its own: its fields are shown as an object of primitives.
const schema = { name: 'Patient', elements: {} } as unknown as TypeSchema;

describe('ElementValue: primitives inside an object', () => {
  it('reads an instant as a date and time, the stored value on hover', () => {
    render(
      <MemoryRouter>
        <ElementValue
          value={{ versionId: '3', lastUpdated: '2026-11-29T00:51:55.565Z' }}
          type="Meta"
          schema={schema}
          path="Patient.meta"
          name="meta"
        />
      </MemoryRouter>,
    );
    expect(screen.queryByText('2026-11-29T00:51:55.565Z')).not.toBeInTheDocument();
    const shown = screen.getByTitle('2026-11-29T00:51:55.565Z');
    expect(shown.textContent).toMatch(/2026/);
    // Not an instant: shown as stored.
    expect(screen.getByText('3')).not.toHaveAttribute('title');
  });
});
