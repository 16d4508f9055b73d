import { Link as RouterLink } from 'react-router-dom';
import { Tab, Tabs } from '@mui/material';
import { chartTabOf, chartTabsFor } from '../../config/clinical/chartTabs';
import { chartPath } from './chartPaths';

/** The chart's tab bar (app-spec §2.2); the e-prescribing tab only when the membership has DoseSpot. */
export function ChartTabBar(props: {
  patientId: string;
  segment: string | undefined;
  ePrescribing: boolean;
  patientView: boolean;
}) {
  const current = chartTabOf(props.segment);
  const tabs = chartTabsFor(props);
  return (
    <Tabs
      value={current && tabs.includes(current) ? current.path : false}
      variant="scrollable"
      scrollButtons="auto"
      allowScrollButtonsMobile
      aria-label="Chart tabs"
      sx={{ minHeight: 44 }}
    >
      {tabs.map((tab) => (
        <Tab
          key={tab.path}
          value={tab.path}
          label={tab.label}
          component={RouterLink}
          to={chartPath(props.patientId, tab.path)}
          sx={{ minHeight: 44, textTransform: 'none', fontWeight: 600 }}
        />
      ))}
    </Tabs>
  );
}
