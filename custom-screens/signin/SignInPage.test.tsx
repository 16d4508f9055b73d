import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { FhirClient } from '../../data-provider/client';
import { SignInPage } from './SignInPage';

describe('SignInPage', () => {
  it('starts at the email step with the product heading', () => {
    const client = new FhirClient({
      baseUrl: 'http://localhost:8103/',
      fetch: () => Promise.reject(new Error('offline')),
    });
    render(
      <MemoryRouter>
        <SignInPage client={client} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Sign in to Hearth EMR' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('type', 'email');
  });
});
