import { describe, expect, it } from 'vitest';
import { chartPath, chartResourcePaths } from './chartPaths';

describe('chart paths', () => {
  const paths = chartResourcePaths('p1');
  it('a save inside the chart lands on the saved row inside the same chart', () => {
    expect(paths.saved({ resourceType: 'MedicationRequest', id: 'm1' } as never)).toBe(
      '/Patient/p1/MedicationRequest/m1/details',
    );
    expect(paths.saved({ resourceType: 'Task', id: 't1' } as never)).toBe('/Patient/p1/task/t1');
    expect(paths.saved({ resourceType: 'Patient', id: 'p1' } as never)).toBe('/Patient/p1/timeline');
  });
  it('a delete goes back to the tab of its type', () => {
    expect(paths.list('CarePlan')).toBe('/Patient/p1/CarePlan');
    expect(paths.list('Patient')).toBe('/Patient');
    expect(chartPath('p1', 'Task', 'new')).toBe('/Patient/p1/Task/new');
  });
});
