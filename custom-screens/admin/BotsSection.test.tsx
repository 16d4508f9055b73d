import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { Bot, OperationOutcome } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { BotsSection } from './BotsSection';
import { deployRefusal, refusalOffset } from './deployRefusal';

const firstCode = 'exports.handler = async () => 1;';
const newCode = 'exports.handler = async () => 2;';

/**
 * The Bots section over a server holding one bot, Greeter: `$deploy` stores the code (what the
 * next search returns), unless `refuse` answers it with an error.
 */
function renderBots(refuse?: (code: string) => unknown) {
  const stored: Bot = { resourceType: 'Bot', id: 'b1', name: 'Greeter', code: firstCode };
  const client = {
    getProject: () => ({ resourceType: 'Project', id: 'demo', name: 'Demo Clinic' }),
    getBaseUrl: () => 'http://hearth.test/',
    fhirUrl: (...parts: string[]) => new URL(`http://hearth.test/fhir/R4/${parts.join('/')}`),
    searchResources: vi.fn(async () => [structuredClone(stored)]),
    executeBot: vi.fn(async () => ({ greeted: true })),
    post: vi.fn(async (_url: URL, body: { code: string }) => {
      const refusal = refuse?.(body.code);
      if (refusal) throw refusal;
      stored.code = body.code;
      return { resourceType: 'OperationOutcome', issue: [{ severity: 'information', code: 'informational' }] };
    }),
  } as unknown as FhirClient;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter>
          <BotsSection />
        </MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { client, stored };
}

const codeOf = (dialog: HTMLElement) => within(dialog).getByLabelText(/Code/) as HTMLTextAreaElement;

async function openDeploy(): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: 'Deploy Greeter' }));
  return screen.findByRole('dialog', { name: 'Deploy Greeter' });
}

describe('BotsSection', () => {
  it('after Run → Close → Deploy, leaves no second Deploy dialog with the old code behind', async () => {
    const { client, stored } = renderBots();
    // The QA sequence on a fresh page: Run, Close; Deploy, change the code, Deploy.
    fireEvent.click(await screen.findByRole('button', { name: 'Run Greeter' }));
    const run = await screen.findByRole('dialog', { name: 'Run Greeter' });
    fireEvent.click(within(run).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    let dialog = await openDeploy();
    expect(codeOf(dialog).value).toBe(firstCode);
    fireEvent.change(codeOf(dialog), { target: { value: newCode } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deploy' }));

    expect(await screen.findByText('Deployed Greeter')).toBeInTheDocument();
    // No dialog at all is left: the old code built a second "Deploy Greeter" holding the first code.
    await waitFor(() => expect(screen.queryAllByRole('dialog')).toEqual([]));
    expect(client.post).toHaveBeenCalledTimes(1);
    expect(client.post).toHaveBeenCalledWith(
      new URL('http://hearth.test/fhir/R4/Bot/b1/$deploy'),
      { code: newCode },
      'application/json',
    );
    expect(stored.code).toBe(newCode);

    // Opened again, it shows what was deployed; Cancel goes back to that, never to the first code.
    dialog = await openDeploy();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(codeOf(dialog).value).toBe(newCode);
    fireEvent.change(codeOf(dialog), { target: { value: '// a draft' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryAllByRole('dialog')).toEqual([]));
    dialog = await openDeploy();
    expect(codeOf(dialog).value).toBe(newCode);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryAllByRole('dialog')).toEqual([]));

    // Run still has its own dialog.
    fireEvent.click(screen.getByRole('button', { name: 'Run Greeter' }));
    expect(await screen.findByRole('dialog', { name: 'Run Greeter' })).toBeInTheDocument();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(client.post).toHaveBeenCalledTimes(1);
    expect(stored.code).toBe(newCode);
  });

  it("shows the server's refusal of code that does not parse under the code, and keeps the code and the dialog", async () => {
    const broken = 'exports.handler = async () => {\n  return 1;\n';
    const outcome: OperationOutcome = {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'error',
          code: 'invalid',
          details: { text: "SyntaxError: expecting '}'" },
          location: ['line 3, column 1'],
          expression: ['code'],
        },
      ],
    };
    const { client, stored } = renderBots((code) =>
      code === broken ? new OperationOutcomeError(outcome, 400) : undefined,
    );
    const dialog = await openDeploy();
    fireEvent.change(codeOf(dialog), { target: { value: broken } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deploy' }));

    const code = codeOf(dialog);
    await waitFor(() => expect(code).toHaveAccessibleDescription("SyntaxError: expecting '}' (line 3, column 1)"));
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code.value).toBe(broken);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Deploy Greeter' })).toBe(dialog);
    expect(screen.queryByText('Deployed Greeter')).toBeNull();
    expect(stored.code).toBe(firstCode);
    // The caret waits where the parser stopped.
    expect(code.selectionStart).toBe(broken.length);

    // Fixed, it goes through and the message goes away with the dialog.
    fireEvent.change(code, { target: { value: `${broken}};\n` } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deploy' }));
    expect(await screen.findByText('Deployed Greeter')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryAllByRole('dialog')).toEqual([]));
    expect(client.post).toHaveBeenCalledTimes(2);
    expect(stored.code).toBe(`${broken}};\n`);
  });

  it('puts an OperationOutcome that names no field under the code too; a failure without one above it', async () => {
    let answer: unknown = new OperationOutcomeError(
      {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'invalid', diagnostics: 'Unexpected token at line 1:19' }],
      },
      400,
    );
    renderBots(() => answer);
    const dialog = await openDeploy();
    fireEvent.change(codeOf(dialog), { target: { value: 'exports.handler = ;' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deploy' }));
    await waitFor(() => expect(codeOf(dialog)).toHaveAccessibleDescription('Unexpected token at line 1:19'));
    expect(within(dialog).queryByRole('alert')).toBeNull();

    answer = new TypeError('Failed to fetch');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deploy' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to fetch');
    expect(codeOf(dialog).value).toBe('exports.handler = ;');
    expect(codeOf(dialog)).toHaveAttribute('aria-invalid', 'false');
  });
});

describe('deployRefusal', () => {
  it('joins every error issue with where it points, leaving out the code path itself', () => {
    expect(
      deployRefusal({
        resourceType: 'OperationOutcome',
        issue: [
          { severity: 'error', code: 'invalid', details: { text: 'A' }, expression: ['Bot.code'] },
          { severity: 'warning', code: 'informational', details: { text: 'W' } },
          { severity: 'error', code: 'invalid', diagnostics: 'B at line 2, column 4', location: ['line 2, column 4'] },
        ],
      }),
    ).toEqual({ code: 'A\nB at line 2, column 4' });
    expect(deployRefusal(new Error('offline'))).toEqual({ general: 'offline' });
  });

  it('finds the offset of a line and column in the code', () => {
    const code = 'ab\ncdef\ng';
    expect(refusalOffset(code, 'at line 2, column 3')).toBe(5);
    expect(refusalOffset(code, 'Line 2:99')).toBe(7);
    expect(refusalOffset(code, 'line 3')).toBe(8);
    expect(refusalOffset(code, 'line 9, column 1')).toBeUndefined();
    expect(refusalOffset(code, 'no position')).toBeUndefined();
  });
});
