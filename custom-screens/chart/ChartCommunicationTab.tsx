import { lazy } from 'react';
import { useChartPatient } from './chartPatient';
import { useChartViewer } from './chartViewer';
import { deceasedNoticeShown } from './deceased';

// The chat is its own chunk: the chart opens without it.
const PatientChatPage = lazy(() => import('../chat').then((m) => ({ default: m.PatientChatPage })));

/**
 * The chart's Communications tab: the chat with the chart's patient. When the chart's deceased
 * notice is already across the top, the chat shows no second banner of the death, only why its box
 * is closed. Until the chart's patient has loaded the notice is not there, so the chat keeps its own.
 */
export function ChartCommunicationTab() {
  const patient = useChartPatient();
  const { patientView } = useChartViewer();
  return <PatientChatPage deathShownAbove={deceasedNoticeShown(patient, patientView)} />;
}
