import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Attachment } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch } from '../../data-provider/client/fakeFetch';
import type { TypeSchema } from '../resources/typeSchema';
import { FhirClientContext } from '../resources/useFhirClient';
import { EXTERNAL_FILE_LABEL, UNSUPPORTED_FILE_LABEL } from './AttachmentLink';
import { AttachmentInput } from './AttachmentInput';
import { ElementValue } from './ValueDisplay';

const server = 'https://ehr.test/';
const schema = { name: 'DocumentReference', elements: {} } as unknown as TypeSchema;

function withClient(children: React.ReactNode) {
  const fake = new FakeFetch();
  const client = new FhirClient({ baseUrl: server, fetch: fake.fetch, autoBatchTime: 0 });
  const view = render(
    <FhirClientContext.Provider value={client}>
      <MemoryRouter>{children}</MemoryRouter>
    </FhirClientContext.Provider>,
  );
  return { fake, ...view };
}

const attachments: Attachment[] = [
  { title: 'signed.pdf', url: `${server}storage/b1/1?Expires=1900000000&Signature=abc` },
  { title: 'binary.pdf', url: 'Binary/b2' },
  { title: 'lab-report.pdf', url: `${server}oauth2/logout` },
  { title: 'elsewhere.pdf', url: 'https://evil.example/elsewhere.pdf' },
  { title: 'script.pdf', url: 'javascript:alert(document.domain)' },
  { title: 'page.html', url: 'data:text/html,<script>alert(1)</script>' },
];

describe('attachments shown by name (resource details, the attachment input)', () => {
  it("links only this server's signed file; other addresses are labelled, and script or data addresses are never an href", () => {
    const { container, fake } = withClient(
      <ElementValue value={attachments} type="Attachment" schema={schema} path="x.content" name="content" />,
    );
    expect(screen.getByRole('link', { name: 'signed.pdf' })).toHaveAttribute('href', attachments[0].url);
    expect(screen.getByRole('link', { name: 'signed.pdf' })).toHaveAttribute('rel', 'noopener noreferrer');
    for (const name of ['binary.pdf', 'lab-report.pdf', 'elsewhere.pdf', 'script.pdf', 'page.html']) {
      expect(screen.getByText(name)).toBeInTheDocument();
      expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    }
    expect(screen.getAllByText(new RegExp(EXTERNAL_FILE_LABEL))).toHaveLength(2);
    expect(screen.getAllByText(UNSUPPORTED_FILE_LABEL)).toHaveLength(2);
    const outside = screen.getByRole('link', { name: 'evil.example/elsewhere.pdf' });
    expect(outside).toHaveAttribute('target', '_blank');
    expect(outside).toHaveAttribute('rel', 'noopener noreferrer');
    expect(container.querySelector('[href^="javascript" i], [href^="data:" i], [href="Binary/b2"]')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
    expect(fake.calls).toEqual([]);
  });

  it('the attachment input does not link a javascript: address either', () => {
    const { container } = withClient(
      <AttachmentInput label="File" path="x.content" value={attachments[4]} onChange={() => undefined} />,
    );
    expect(screen.getByText('script.pdf')).toBeInTheDocument();
    expect(screen.getByText(UNSUPPORTED_FILE_LABEL)).toBeInTheDocument();
    expect(container.querySelector('a[href]')).toBeNull();
  });
});
