import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContentErrorBoundary } from './ContentErrorBoundary';

function Broken({ message }: { message: string }): never {
  throw new Error(message);
}

describe('ContentErrorBoundary', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows a render error as "Something went wrong" with the message, and clears it on a new location', () => {
    // React and the boundary log the caught error; the test only looks at the screen.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { rerender } = render(
      <ContentErrorBoundary locationKey="/Patient/1">
        <Broken message="Cannot read the chart" />
      </ContentErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('alert')).toHaveTextContent('Cannot read the chart');

    // Same location: the error stays even if the page could now render.
    rerender(
      <ContentErrorBoundary locationKey="/Patient/1">
        <p>Chart</p>
      </ContentErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();

    rerender(
      <ContentErrorBoundary locationKey="/Patient/2">
        <p>Chart</p>
      </ContentErrorBoundary>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Chart')).toBeInTheDocument();
  });
});
