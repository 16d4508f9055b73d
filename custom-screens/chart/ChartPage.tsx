import { useEffect, useMemo, useRef } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Box, CircularProgress } from '@mui/material';
import type { Patient } from '@medplum/fhirtypes';
import { ResourcePathsContext } from '../../src/resources/resourcePaths';
import { useResource } from '../../src/resources/useResource';
import { isEPrescribingEnabled } from '../../src/shell/notificationQueries';
import { HEADER_HEIGHT } from '../../src/shell/themes';
import { useNarrowLayout } from '../../src/shell/useNarrowLayout';
import { useSession } from '../../src/shell/useSession';
import { chartResourcePaths } from './chartPaths';
import { ChartPatientContext } from './chartPatient';
import { ChartSidebar } from './ChartSidebar';
import { ChartTabBar } from './ChartTabBar';
import { ChartTabRoutes } from './ChartTabRoutes';
import { ChartViewerContext } from './chartViewer';
import { AppLaunchMenu, chartLaunchContext } from './apps';
import { DeceasedNotice, deceasedNoticeShown } from './deceased';
import { usePatientSummaryData } from './summary/usePatientSummaryData';

/** Patient sidebar width (app-spec §2.7, §9). */
export const PATIENT_SIDEBAR_WIDTH = 350;

/**
 * `/Patient/{id}/*`: the chart (app-spec §2.2). The sidebar and the tab bar stay mounted while the
 * tab content changes below them. The patient read and the default tab's searches start in the
 * same render, so the client's auto-batching sends them in one request.
 */
export function ChartPage() {
  const { patientId = '', '*': rest = '' } = useParams();
  const patient = useResource('Patient', patientId || undefined);
  // The summary's searches start now, beside the patient read, rather than once the patient has
  // arrived and the sidebar mounts: one round trip instead of two (the sidebar reuses them).
  usePatientSummaryData(patientId);
  const session = useSession();
  const ePrescribing = isEPrescribingEnabled(session.membership);
  const patientView = session.profile?.resourceType === 'Patient';
  const viewer = useMemo(() => ({ patientView }), [patientView]);
  const paths = useMemo(() => chartResourcePaths(patientId), [patientId]);
  // Below 900 px the summary sits above the tabs: a link in it ("4 open tasks"), a tab or a row
  // opened brings the tab bar and its content to the top, rather than change what is below the fold.
  const narrow = useNarrowLayout();
  const chartSection = useRef<HTMLElement>(null);
  const shownPath = useRef(rest);
  useEffect(() => {
    if (shownPath.current === rest) return;
    shownPath.current = rest;
    if (narrow) chartSection.current?.scrollIntoView({ block: 'start' });
  }, [rest, narrow]);
  if (!patientId) return <Alert severity="error">Patient ID not found</Alert>;
  const segment = rest.split('/')[0] || undefined;
  return (
    <ChartPatientContext.Provider value={patient.data as Patient | undefined}>
      <ChartViewerContext.Provider value={viewer}>
        <ResourcePathsContext.Provider value={paths}>
          <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100%' }}>
            {/* Across the whole chart, above the summary and the tabs: seen first, whichever tab is open.
                The care team's: a patient reading their own record is not asked to close anything. */}
            {deceasedNoticeShown(patient.data as Patient | undefined, patientView) && (
              <DeceasedNotice patient={patient.data as Patient} />
            )}
            <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, flex: 1 }}>
              <Box
                component="aside"
                aria-label="Patient summary"
                sx={{
                  width: { xs: '100%', md: PATIENT_SIDEBAR_WIDTH },
                  flexShrink: 0,
                  // Width and style only: a responsive border shorthand would reset the colour to black.
                  borderStyle: 'solid',
                  borderColor: 'divider',
                  borderWidth: { xs: '0 0 1px 0', md: '0 1px 0 0' },
                }}
              >
                {patient.error && (
                  <Alert severity="error" sx={{ m: 2 }}>
                    {patient.error.message}
                  </Alert>
                )}
                {patient.isPending && <CircularProgress aria-label="Loading..." sx={{ m: 2 }} />}
                {patient.data && <ChartSidebar patient={patient.data as Patient} compact={narrow} />}
              </Box>
              <Box
                component="section"
                aria-label="Chart"
                ref={chartSection}
                // Narrow: at least a window's height, so that the tab bar can come to the top even
                // while the tab's content (loaded on demand) is still short.
                sx={{ flex: 1, minWidth: 0, minHeight: { xs: `calc(100vh - ${HEADER_HEIGHT}px)`, md: 0 } }}
              >
                <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
                  <ChartTabBar
                    patientId={patientId}
                    segment={segment}
                    ePrescribing={ePrescribing}
                    patientView={patientView}
                    end={
                      // A patient's own chart launches nothing: EHR launch is the clinician's. Mounted with the
                      // chart's first reads, so that its search of the project's apps joins their batch.
                      !patientView && !patient.error && <AppLaunchMenu context={chartLaunchContext(patientId, rest)} />
                    }
                  />
                </Box>
                {patient.error ? null : <ChartTabRoutes ePrescribing={ePrescribing} patientView={patientView} />}
              </Box>
            </Box>
          </Box>
        </ResourcePathsContext.Provider>
      </ChartViewerContext.Provider>
    </ChartPatientContext.Provider>
  );
}
