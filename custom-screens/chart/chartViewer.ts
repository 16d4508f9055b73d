import { createContext, useContext } from 'react';

/** Who looks at the open chart: a patient reading their own record gets it without the care team's actions. */
export interface ChartViewer {
  patientView: boolean;
}

export const ChartViewerContext = createContext<ChartViewer>({ patientView: false });

export function useChartViewer(): ChartViewer {
  return useContext(ChartViewerContext);
}
