import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Menu, MenuItem, Tab, Tabs } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { chartTabOf } from '../../config/clinical/chartTabs';
import { chartPath } from './chartPaths';
import { splitTabs } from './tabOverflow';
import { useChartTabs } from './useChartTabs';

/** Rows the tabs may wrap onto before the rest go into "More": all of them fit in two at 1280 px. */
const MAX_ROWS = 2;

/**
 * A tab sized to its label rather than MUI's 90 px minimum, so that more fit in the chart's
 * narrow column. The selected tab is underlined by itself: MUI's sliding indicator runs along the
 * bar's bottom edge only, under the wrong row once the tabs wrap.
 */
const tabSx = {
  minWidth: 0,
  minHeight: 40,
  px: 1.5,
  py: 1,
  textTransform: 'none',
  fontWeight: 600,
} as const;
const selectedTabSx = {
  ...tabSx,
  '&.Mui-selected::after': {
    content: '""',
    position: 'absolute',
    left: 0,
    right: 0,
    bottom: 0,
    height: 2,
    bgcolor: 'primary.main',
  },
} as const;
const moreSx = { ...tabSx, flexShrink: 0, color: 'text.secondary', '& .MuiButton-endIcon': { ml: 0.25 } } as const;

interface Measures {
  availableWidth: number;
  endWidth: number;
  tabWidths: number[];
  moreWidth: number;
}

const unmeasured: Measures = { availableWidth: 0, endWidth: 0, tabWidths: [], moreWidth: 0 };

const widthOf = (element: Element | null | undefined) => Math.ceil(element?.getBoundingClientRect().width ?? 0);

function sameMeasures(a: Measures, b: Measures): boolean {
  return (
    a.availableWidth === b.availableWidth &&
    a.endWidth === b.endWidth &&
    a.moreWidth === b.moreWidth &&
    a.tabWidths.length === b.tabWidths.length &&
    a.tabWidths.every((width, index) => width === b.tabWidths[index])
  );
}

type ElementRef = RefObject<HTMLElement | null>;

/**
 * The bar's own width (not the window's: the chart sits beside the navigation and the patient
 * sidebar), its end column's, and every tab's width as drawn, from a hidden copy of all tabs,
 * whichever are shown. Measured again whenever one changes size (a resize, the navigation
 * toggled, fonts arriving, the Apps button appearing).
 */
function useMeasures(bar: ElementRef, end: ElementRef, ruler: ElementRef, key: string): Measures {
  const [measures, setMeasures] = useState<Measures>(unmeasured);
  useLayoutEffect(() => {
    const measure = () => {
      const rulerElement = ruler.current;
      const next: Measures = {
        availableWidth: Math.floor(bar.current?.getBoundingClientRect().width ?? 0),
        endWidth: widthOf(end.current),
        tabWidths: [...(rulerElement?.querySelectorAll('[data-ruler="tab"]') ?? [])].map(widthOf),
        moreWidth: widthOf(rulerElement?.querySelector('[data-ruler="more"]')),
      };
      setMeasures((previous) => (sameMeasures(previous, next) ? previous : next));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    for (const element of [bar.current, end.current, ruler.current]) if (element) observer.observe(element);
    return () => observer.disconnect();
  }, [bar, end, ruler, key]);
  return measures;
}

/**
 * The chart's tab bar (app-spec §2.2); the e-prescribing tab only when the membership has DoseSpot,
 * and only the tabs the caller's access policy lets them open.
 * The tabs wrap onto two rows; those that still do not fit are in a "More" menu at the end, the
 * active tab always in the bar. `end` (the Apps menu) heads the column at the bar's end, the
 * "More" button under it.
 */
export function ChartTabBar(props: {
  patientId: string;
  segment: string | undefined;
  ePrescribing: boolean;
  patientView: boolean;
  end?: ReactNode;
}) {
  const current = chartTabOf(props.segment);
  const tabs = useChartTabs(props);
  const bar = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const ruler = useRef<HTMLDivElement>(null);
  const measures = useMeasures(bar, end, ruler, tabs.map((tab) => tab.path).join());
  const activeIndex = current ? tabs.indexOf(current) : -1;
  const split = splitTabs({
    ...measures,
    // Until the copy's widths are in (or if they never are), all tabs are in the bar.
    tabWidths: measures.tabWidths.length === tabs.length ? measures.tabWidths : tabs.map(() => 0),
    activeIndex,
    maxRows: MAX_ROWS,
  });
  const shown = split.visible.map((index) => tabs[index]!);
  const more = split.overflow.map((index) => tabs[index]!);

  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  // Chosen from the menu: once it is in the bar, the active tab takes the keyboard focus.
  const focusActive = useRef(false);
  useEffect(() => {
    if (!focusActive.current) return;
    focusActive.current = false;
    // After the menu has closed and handed the focus back to its button.
    const frame = requestAnimationFrame(() =>
      bar.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus(),
    );
    return () => cancelAnimationFrame(frame);
  }, [current]);

  return (
    <Box ref={bar} sx={{ position: 'relative', display: 'flex', minWidth: 0 }}>
      <Tabs
        value={current && shown.includes(current) ? current.path : false}
        aria-label="Chart tabs"
        sx={{ flex: 1, minWidth: 0, minHeight: 40 }}
        slotProps={{ list: { sx: { flexWrap: 'wrap' } }, indicator: { sx: { display: 'none' } } }}
      >
        {shown.map((tab) => (
          <Tab
            key={tab.path}
            value={tab.path}
            label={tab.label}
            component={RouterLink}
            to={chartPath(props.patientId, tab.path)}
            sx={selectedTabSx}
          />
        ))}
      </Tabs>
      <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', flexShrink: 0 }}>
        <Box ref={end} sx={{ display: 'flex', alignItems: 'center', minHeight: 40, '&:empty': { display: 'none' } }}>
          {props.end}
        </Box>
        {more.length > 0 && (
          <Button
            id={buttonId}
            aria-label="More tabs"
            aria-haspopup="menu"
            aria-controls={menuAnchor ? menuId : undefined}
            aria-expanded={menuAnchor ? 'true' : undefined}
            endIcon={<ExpandMoreIcon />}
            onClick={(event) => setMenuAnchor(event.currentTarget)}
            // At the foot of the column: the end of the tabs' last row.
            sx={{ ...moreSx, mt: 'auto' }}
          >
            More
          </Button>
        )}
      </Box>
      <Menu
        id={menuId}
        anchorEl={menuAnchor}
        // Not once the button has gone (the bar grew wide enough for all tabs while it was open).
        open={menuAnchor !== null && menuAnchor.isConnected && more.length > 0}
        onClose={() => setMenuAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        {more.map((tab) => (
          <MenuItem
            key={tab.path}
            component={RouterLink}
            to={chartPath(props.patientId, tab.path)}
            onClick={() => {
              focusActive.current = true;
              setMenuAnchor(null);
            }}
          >
            {tab.label}
          </MenuItem>
        ))}
      </Menu>
      {/* Every tab and the "More" button as drawn, out of sight and out of reach: their widths
          decide what fits. Inside a box of no size, so that they never widen the page. */}
      <Box aria-hidden inert sx={{ position: 'absolute', top: 0, left: 0, width: 0, height: 0, overflow: 'hidden' }}>
        <Box ref={ruler} sx={{ display: 'flex', width: 'max-content', visibility: 'hidden' }}>
          {tabs.map((tab) => (
            <Tab
              key={tab.path}
              component="span"
              role="presentation"
              tabIndex={-1}
              disableRipple
              label={tab.label}
              data-ruler="tab"
              sx={tabSx}
            />
          ))}
          <Button
            component="span"
            tabIndex={-1}
            disableRipple
            endIcon={<ExpandMoreIcon />}
            data-ruler="more"
            sx={moreSx}
          >
            More
          </Button>
        </Box>
      </Box>
    </Box>
  );
}
