import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { CircularProgress } from '@mui/material';
import { chartTabOf } from '../../config/clinical/chartTabs';
import { AccessPolicyNotice } from './AccessPolicyNotice';
import { ChartCommunicationTab } from './ChartCommunicationTab';
import { mayOpenChartTab } from './chartTabAccess';
import { ChartTabList } from './ChartTabList';
import { RecordAccessGate } from './RecordAccessGate';
import { useChartAccess } from './useChartAccess';
import { TimelineTab } from './timeline/TimelineTab';

// The other clinical screens and the editor are their own chunks: the chart opens without them.
const VisitNotePage = lazy(() => import('../visit-note').then((m) => ({ default: m.VisitNotePage })));
const TaskPage = lazy(() => import('../tasks').then((m) => ({ default: m.TaskPage })));
const EPrescribingPage = lazy(() => import('../eprescribing').then((m) => ({ default: m.EPrescribingPage })));
const PatientEditTab = lazy(() => import('./PatientEditTab').then((m) => ({ default: m.PatientEditTab })));
const ChartCreatePage = lazy(() => import('./ChartCreatePage').then((m) => ({ default: m.ChartCreatePage })));
const ResourcePage = lazy(() => import('../../src/resources/ResourcePage').then((m) => ({ default: m.ResourcePage })));
const ResourceVersionPage = lazy(() =>
  import('../../src/resources/ResourceVersionPage').then((m) => ({ default: m.ResourceVersionPage })),
);

function screen(element: ReactElement): ReactElement {
  return <Suspense fallback={<CircularProgress aria-label="Loading..." sx={{ m: 2 }} />}>{element}</Suspense>;
}

/** An unknown tab or one this user does not have: up one level, to the chart's default (app-spec §2.2). */
function UpOneLevel() {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate('..', { replace: true });
  }, [navigate]);
  return null;
}

/** The tab content under `/Patient/{id}/` (app-spec §2.2); the frame around it stays mounted. */
export function ChartTabRoutes({ ePrescribing, patientView }: { ePrescribing: boolean; patientView: boolean }) {
  const access = useChartAccess();
  // A patient's own view has no care-team tabs: their paths lead back to the timeline. A tab the
  // caller's policy leaves out (not in their tab bar, but linked to or typed) says so, calmly.
  const staff = (element: ReactElement, tabPath?: string) => {
    if (patientView) return <UpOneLevel />;
    const tab = tabPath === undefined ? undefined : chartTabOf(tabPath);
    if (tab && !mayOpenChartTab(tab, access)) return <AccessPolicyNotice label={tab.label} />;
    return screen(element);
  };
  return (
    <Routes>
      <Route index element={<TimelineTab />} />
      <Route path="timeline" element={<TimelineTab />} />
      <Route path="edit" element={staff(<PatientEditTab />, 'edit')} />
      {/* Not `Encounter`: that path lists the patient's visits (the summary's "documented visits"). */}
      <Route path="encounter" caseSensitive element={staff(<VisitNotePage />, 'encounter')} />
      <Route path="task/:taskId/*" element={staff(<TaskPage />, 'Task')} />
      <Route path="communication" element={staff(<ChartCommunicationTab />, 'communication')} />
      <Route path="communication/:communicationId" element={staff(<ChartCommunicationTab />, 'communication')} />
      <Route path="dosespot" element={ePrescribing && !patientView ? screen(<EPrescribingPage />) : <UpOneLevel />} />
      <Route path=":resourceType" element={<ChartTabList />} />
      <Route path=":resourceType/new" element={staff(<ChartCreatePage />)} />
      <Route
        path=":resourceType/:id/_history/:versionId"
        element={<RecordAccessGate>{screen(<ResourceVersionPage />)}</RecordAccessGate>}
      />
      <Route path=":resourceType/:id/*" element={<RecordAccessGate>{screen(<ResourcePage />)}</RecordAccessGate>} />
    </Routes>
  );
}
