import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { CoreAdminContext, HttpError, type DataProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import type { Bot, Bundle, Task } from '@medplum/fhirtypes';
import { BulkBotDialog } from './BulkBotDialog';

function bundle<T>(resources: T[]): { data: Bundle } {
  return {
    data: { resourceType: 'Bundle', type: 'searchset', entry: resources.map((resource) => ({ resource })) } as Bundle,
  };
}

function setup(bots: Bot[], caller = { policy: undefined, superAdmin: false, projectAdmin: true }) {
  const tasks: Task[] = ['t1', 't2'].map((id) => ({ resourceType: 'Task', id, status: 'ready', intent: 'order' }));
  const searchBundle = vi.fn(async (type: string) => (type === 'Bot' ? bundle(bots) : bundle(tasks)));
  const executeBot = vi.fn(async ({ body }: { body: Task }) => {
    if (body.id === 't2') throw new HttpError('Bot error: no t2', 400);
    return { data: `done ${body.id}` };
  });
  const onFinished = vi.fn();
  const dataProvider = { searchBundle, executeBot } as unknown as DataProvider;
  render(
    <MemoryRouter>
      <CoreAdminContext dataProvider={dataProvider}>
        <BulkBotDialog
          resourceType="Task"
          ids={['t1', 't2']}
          caller={caller}
          onClose={vi.fn()}
          onFinished={onFinished}
        />
      </CoreAdminContext>
    </MemoryRouter>,
  );
  return { searchBundle, executeBot, onFinished, user: userEvent.setup({ delay: null }) };
}

describe('BulkBotDialog', { timeout: 30_000 }, () => {
  it('says when the project has no bots and links to a new one', async () => {
    setup([]);
    expect(await screen.findByText(/No bots in this project/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a bot' })).toHaveAttribute('href', '/Bot/new');
    expect(screen.queryByRole('button', { name: 'Run' })).toBeNull();
  });

  it('runs the chosen bot on each resource with the resource as input, and shows each result', async () => {
    const { executeBot, onFinished, user } = setup([
      { resourceType: 'Bot', id: 'b1', name: 'First' },
      { resourceType: 'Bot', id: 'b2', name: 'Second' },
    ]);
    const run = await screen.findByRole('button', { name: 'Run' });
    expect(run).toBeDisabled(); // two bots: the user chooses
    await user.click(screen.getByRole('combobox', { name: 'Bot' }));
    await user.click(await screen.findByRole('option', { name: 'Second' }));
    await user.click(run);
    expect(await screen.findByText('2 of 2 finished · 1 succeeded · 1 failed')).toBeInTheDocument();
    const results = screen.getByRole('table', { name: 'Bulk results' });
    expect(within(results).getByText('Success: done t1')).toBeInTheDocument();
    expect(within(results).getByText('Error: Bot error: no t2')).toBeInTheDocument();
    expect(executeBot).toHaveBeenCalledTimes(2);
    expect(executeBot.mock.calls[0][0]).toMatchObject({
      bot: 'b2',
      contentType: 'application/fhir+json',
      body: { resourceType: 'Task', id: 't1' },
    });
    expect(onFinished).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('warns a member the server will not run bots for', async () => {
    setup([{ resourceType: 'Bot', id: 'b1', name: 'Only' }], {
      policy: undefined,
      superAdmin: false,
      projectAdmin: false,
    });
    expect(await screen.findByText(/does not allow running bots/)).toBeInTheDocument();
  });
});
