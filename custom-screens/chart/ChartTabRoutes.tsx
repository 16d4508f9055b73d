import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { CircularProgress } from '@mui/material';
import { ChartCommunicationTab } from './ChartCommunicationTab';
import { ChartTabList } from './ChartTabList';
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
  // A patient's own view has no care-team tabs: their paths lead back to the timeline.
  const staff = (element: ReactElement) => (patientView ? <UpOneLevel /> : screen(element));
  return (
    <Routes>
      <Route index element={<TimelineTab />} />
      <Route path="timeline" element={<TimelineTab />} />
      <Route path="edit" element={staff(<PatientEditTab />)} />
      {/* Not `Encounter`: that path lists the patient's visits (the summary's "documented visits"). */}
      <Route path="encounter" caseSensitive element={staff(<VisitNotePage />)} />
      <Route path="task/:taskId/*" element={staff(<TaskPage />)} />
      <Route path="communication" element={staff(<ChartCommunicationTab />)} />
      <Route path="communication/:communicationId" element={staff(<ChartCommunicationTab />)} />
      <Route path="dosespot" element={ePrescribing && !patientView ? screen(<EPrescribingPage />) : <UpOneLevel />} />
      <Route path=":resourceType" element={<ChartTabList />} />
      <Route path=":resourceType/new" element={staff(<ChartCreatePage />)} />
      <Route path=":resourceType/:id/_history/:versionId" element={screen(<ResourceVersionPage />)} />
      <Route path=":resourceType/:id/*" element={screen(<ResourcePage />)} />
    </Routes>
  );
}
